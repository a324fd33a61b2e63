ALTER TABLE "extractions" ALTER COLUMN "schema_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "split" json;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "pages" jsonb;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_parent_id_extractions_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."extractions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "extractions_parent_idx" ON "extractions" USING btree ("parent_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "extractions"."parent_id" is not null;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_split_schema_check" CHECK (("extractions"."schema_id" is null) = ("extractions"."split" is not null));--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_split_child_check" CHECK (("extractions"."parent_id" is null) = ("extractions"."pages" is null) and ("extractions"."parent_id" is null or "extractions"."split" is null));--> statement-breakpoint
-- Written by hand: the counters (0009) key on schema_id, part of their primary key, which a
-- split parent lacks. Its rows are counted under the nil UUID, which no schema has, so totals
-- stay exact and a `schema_id` filter never matches a parent.
CREATE OR REPLACE FUNCTION extraction_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign bigint := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO extraction_counts (account_id, status, schema_id, schema_name, shard, n)
  SELECT account_id, status, coalesce(schema_id, '00000000-0000-0000-0000-000000000000'::uuid),
         schema_name, hashtext(id::text) & 15, sign * count(*)
  FROM changed GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, status, schema_id, schema_name, shard)
  DO UPDATE SET n = extraction_counts.n + excluded.n;
  INSERT INTO extraction_day_counts (account_id, day, shard, n)
  SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, hashtext(id::text) & 15, sign * count(*)
  FROM changed GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (account_id, day, shard) DO UPDATE SET n = extraction_day_counts.n + excluded.n;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION extraction_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO extraction_counts (account_id, status, schema_id, schema_name, shard, n)
  VALUES (OLD.account_id, OLD.status, coalesce(OLD.schema_id, '00000000-0000-0000-0000-000000000000'::uuid),
          OLD.schema_name, hashtext(OLD.id::text) & 15, -1),
         (NEW.account_id, NEW.status, coalesce(NEW.schema_id, '00000000-0000-0000-0000-000000000000'::uuid),
          NEW.schema_name, hashtext(NEW.id::text) & 15, 1)
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, status, schema_id, schema_name, shard)
  DO UPDATE SET n = extraction_counts.n + excluded.n;
  RETURN NULL;
END
$$;
