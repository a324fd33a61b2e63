CREATE TABLE "extraction_windows" (
	"extraction_id" uuid NOT NULL,
	"window_index" integer NOT NULL,
	"first_page" integer NOT NULL,
	"last_page" integer NOT NULL,
	"output" json,
	"annotations" jsonb NOT NULL,
	"truncated" jsonb NOT NULL,
	"grounding" jsonb,
	"page_images" jsonb,
	"tokens" integer NOT NULL,
	"usage" jsonb NOT NULL,
	"calls" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "extraction_windows_extraction_id_window_index_pk" PRIMARY KEY("extraction_id","window_index")
);
--> statement-breakpoint
ALTER TABLE "extraction_windows" ADD CONSTRAINT "extraction_windows_extraction_id_extractions_id_fk" FOREIGN KEY ("extraction_id") REFERENCES "public"."extractions"("id") ON DELETE cascade ON UPDATE no action;