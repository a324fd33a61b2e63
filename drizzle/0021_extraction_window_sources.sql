CREATE TABLE "extraction_window_sources" (
	"extraction_id" uuid PRIMARY KEY NOT NULL,
	"ref" text NOT NULL,
	"notes_pages" boolean NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "extraction_window_sources" ADD CONSTRAINT "extraction_window_sources_extraction_id_extractions_id_fk" FOREIGN KEY ("extraction_id") REFERENCES "public"."extractions"("id") ON DELETE cascade ON UPDATE no action;