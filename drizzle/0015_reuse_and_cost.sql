ALTER TABLE "extractions" DROP CONSTRAINT "extractions_charged_check";--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "output_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "cached_input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "cost_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "saved_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "priority" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "reuse_key" "bytea";--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "reused_from" uuid;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "cache_max_age_seconds" integer;--> statement-breakpoint
CREATE INDEX "extractions_reuse_idx" ON "extractions" USING btree ("account_id","reuse_key","finished_at" DESC NULLS LAST) WHERE "extractions"."status" = 'completed' and "extractions"."reused_from" is null;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_priority_check" CHECK ("extractions"."priority" in ('standard', 'batch'));--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_charged_check" CHECK ("extractions"."charged" = ("extractions"."status" = 'completed' and "extractions"."reused_from" is null));