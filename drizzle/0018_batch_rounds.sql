CREATE TABLE "model_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"extraction_id" uuid NOT NULL,
	"requests" jsonb NOT NULL,
	"file_id" text,
	"batch_id" text,
	"status" text DEFAULT 'open' NOT NULL,
	"answers" jsonb,
	"lease_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "model_batches_extraction_idx" ON "model_batches" USING btree ("extraction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "model_batches_one_open_idx" ON "model_batches" USING btree ("extraction_id") WHERE "model_batches"."status" in ('open', 'submitted');--> statement-breakpoint
CREATE INDEX "model_batches_unfinished_idx" ON "model_batches" USING btree ("created_at") WHERE "model_batches"."status" in ('open', 'submitted');