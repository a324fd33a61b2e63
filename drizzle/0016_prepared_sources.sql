CREATE TABLE "prepared_sources" (
	"account_id" uuid NOT NULL,
	"key" "bytea" NOT NULL,
	"extraction_id" uuid NOT NULL,
	"body" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prepared_sources_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
ALTER TABLE "prepared_sources" ADD CONSTRAINT "prepared_sources_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepared_sources" ADD CONSTRAINT "prepared_sources_extraction_id_extractions_id_fk" FOREIGN KEY ("extraction_id") REFERENCES "public"."extractions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prepared_sources_created_idx" ON "prepared_sources" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "prepared_sources_extraction_idx" ON "prepared_sources" USING btree ("extraction_id");