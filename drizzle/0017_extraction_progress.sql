ALTER TABLE "extractions" ADD COLUMN "pages_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "pages_total" integer DEFAULT 0 NOT NULL;