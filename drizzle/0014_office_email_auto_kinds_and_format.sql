ALTER TABLE "extractions" DROP CONSTRAINT "extractions_source_type_check";--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "format" text;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_source_type_check" CHECK (source_type in ('text', 'image', 'pdf', 'webpage', 'document', 'spreadsheet', 'email', 'auto'));