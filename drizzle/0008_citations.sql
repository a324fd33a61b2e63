ALTER TABLE "extractions" ADD COLUMN "citations_requested" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "citations" json;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "warnings" json;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "page_images" json;