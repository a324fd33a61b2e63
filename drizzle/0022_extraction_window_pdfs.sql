CREATE TABLE "extraction_window_pdfs" (
	"extraction_id" uuid NOT NULL,
	"window_index" integer NOT NULL,
	"ref" text NOT NULL,
	"first_page" integer NOT NULL,
	"last_page" integer NOT NULL,
	"notes_pages" boolean NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "extraction_window_pdfs_extraction_id_window_index_pk" PRIMARY KEY("extraction_id","window_index")
);
--> statement-breakpoint
ALTER TABLE "extraction_window_pdfs" ADD CONSTRAINT "extraction_window_pdfs_extraction_id_extractions_id_fk" FOREIGN KEY ("extraction_id") REFERENCES "public"."extractions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "extraction_window_pdfs_ref_idx" ON "extraction_window_pdfs" USING btree ("ref");