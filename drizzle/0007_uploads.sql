CREATE TABLE "blob_chunks" (
	"ref" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "blob_chunks_ref_seq_pk" PRIMARY KEY("ref","seq")
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"ref" uuid PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "file" jsonb;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "file_ref" uuid;--> statement-breakpoint
ALTER TABLE "blob_chunks" ADD CONSTRAINT "blob_chunks_ref_blobs_ref_fk" FOREIGN KEY ("ref") REFERENCES "public"."blobs"("ref") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blobs_created_idx" ON "blobs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "extractions_file_retention_idx" ON "extractions" USING btree ("finished_at") WHERE "extractions"."file_ref" is not null;--> statement-breakpoint
CREATE INDEX "extractions_file_ref_idx" ON "extractions" USING btree ("file_ref");