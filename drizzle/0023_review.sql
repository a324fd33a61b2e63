ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_events_check";--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "review_status" text;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "review_reasons" json;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "reviewed_output" json;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "reviewed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "schemas" ADD COLUMN "review" json;--> statement-breakpoint
CREATE INDEX "extractions_review_idx" ON "extractions" USING btree ("account_id","review_status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "extractions"."review_status" is not null;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_review_status_check" CHECK ("extractions"."review_status" in ('needs_review', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_events_check" CHECK (cardinality("webhook_endpoints"."events") > 0 and "webhook_endpoints"."events" <@ array['extraction.completed', 'extraction.failed', 'extraction.reviewed']::text[]);