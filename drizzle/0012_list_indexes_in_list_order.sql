DROP INDEX "extractions_account_schema_idx";--> statement-breakpoint
DROP INDEX "extractions_account_status_idx";--> statement-breakpoint
CREATE INDEX "extractions_account_schema_idx" ON "extractions" USING btree ("account_id","schema_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "extractions_account_status_idx" ON "extractions" USING btree ("account_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);