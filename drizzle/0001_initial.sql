CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"hash" "bytea" NOT NULL,
	"display_prefix" text NOT NULL,
	"scope" text NOT NULL,
	"label" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"last_used_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_scope_check" CHECK ("api_keys"."scope" in ('read', 'write'))
);
--> statement-breakpoint
CREATE TABLE "extractions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"schema_id" uuid NOT NULL,
	"schema_name" text NOT NULL,
	"schema_structure" json NOT NULL,
	"source_type" text NOT NULL,
	"source" text NOT NULL,
	"instruction" text,
	"model" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"output" json,
	"total_tokens" bigint DEFAULT 0 NOT NULL,
	"charged" boolean DEFAULT false NOT NULL,
	"error_code" text,
	"error_message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"request_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "extractions_status_check" CHECK ("extractions"."status" in ('pending', 'processing', 'completed', 'failed')),
	CONSTRAINT "extractions_charged_check" CHECK ("extractions"."charged" = ("extractions"."status" = 'completed'))
);
--> statement-breakpoint
CREATE TABLE "schemas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"structure" json NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemas" ADD CONSTRAINT "schemas_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_idx" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "extractions_account_created_idx" ON "extractions" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "extractions_account_schema_idx" ON "extractions" USING btree ("account_id","schema_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "extractions_account_status_idx" ON "extractions" USING btree ("account_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "extractions_schema_name_trgm_idx" ON "extractions" USING gin ("schema_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "extractions_unfinished_idx" ON "extractions" USING btree ("status","created_at") WHERE "extractions"."status" in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "schemas_account_created_idx" ON "schemas" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "schemas_name_trgm_idx" ON "schemas" USING gin ("name" gin_trgm_ops);