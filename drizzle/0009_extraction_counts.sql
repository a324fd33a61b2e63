CREATE TABLE "extraction_counts" (
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"schema_id" uuid NOT NULL,
	"schema_name" text NOT NULL,
	"shard" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "extraction_counts_account_id_status_schema_id_schema_name_shard_pk" PRIMARY KEY("account_id","status","schema_id","schema_name","shard")
);
--> statement-breakpoint
CREATE TABLE "extraction_day_counts" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"shard" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "extraction_day_counts_account_id_day_shard_pk" PRIMARY KEY("account_id","day","shard")
);

--> statement-breakpoint
-- Keeps extraction_counts and extraction_day_counts exact (see their comments in
-- packages/db/src/schema.ts). Written by hand: drizzle-kit does not generate triggers.
CREATE FUNCTION extraction_counts_add(account uuid, state text, schema uuid, name text, extraction uuid, delta bigint)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO extraction_counts (account_id, status, schema_id, schema_name, shard, n)
  VALUES (account, state, schema, name, hashtext(extraction::text) & 15, delta)
  ON CONFLICT (account_id, status, schema_id, schema_name, shard)
  DO UPDATE SET n = extraction_counts.n + excluded.n
$$;--> statement-breakpoint
CREATE FUNCTION extraction_day_counts_add(account uuid, created timestamptz, extraction uuid, delta bigint)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO extraction_day_counts (account_id, day, shard, n)
  VALUES (account, (created AT TIME ZONE 'UTC')::date, hashtext(extraction::text) & 15, delta)
  ON CONFLICT (account_id, day, shard) DO UPDATE SET n = extraction_day_counts.n + excluded.n
$$;--> statement-breakpoint
CREATE FUNCTION extraction_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM extraction_counts_add(NEW.account_id, NEW.status, NEW.schema_id, NEW.schema_name, NEW.id, 1);
    PERFORM extraction_day_counts_add(NEW.account_id, NEW.created_at, NEW.id, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM extraction_counts_add(OLD.account_id, OLD.status, OLD.schema_id, OLD.schema_name, OLD.id, -1);
    PERFORM extraction_day_counts_add(OLD.account_id, OLD.created_at, OLD.id, -1);
  -- One lock order for every pair of counter rows, so pending → processing and
  -- processing → pending running at once on one shard cannot deadlock.
  ELSIF OLD.status < NEW.status THEN
    PERFORM extraction_counts_add(OLD.account_id, OLD.status, OLD.schema_id, OLD.schema_name, OLD.id, -1);
    PERFORM extraction_counts_add(NEW.account_id, NEW.status, NEW.schema_id, NEW.schema_name, NEW.id, 1);
  ELSE
    PERFORM extraction_counts_add(NEW.account_id, NEW.status, NEW.schema_id, NEW.schema_name, NEW.id, 1);
    PERFORM extraction_counts_add(OLD.account_id, OLD.status, OLD.schema_id, OLD.schema_name, OLD.id, -1);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Creates wait for this migration's commit rather than slip between the backfill and the trigger.
LOCK TABLE extractions IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TRIGGER extraction_counts_insert_delete AFTER INSERT OR DELETE ON extractions
  FOR EACH ROW EXECUTE FUNCTION extraction_counts_track();--> statement-breakpoint
-- The day never changes (created_at is never updated), so updates only move extraction_counts.
CREATE TRIGGER extraction_counts_update AFTER UPDATE OF status, schema_id, schema_name ON extractions
  FOR EACH ROW WHEN ((OLD.status, OLD.schema_id, OLD.schema_name) IS DISTINCT FROM (NEW.status, NEW.schema_id, NEW.schema_name))
  EXECUTE FUNCTION extraction_counts_track();--> statement-breakpoint
INSERT INTO extraction_counts (account_id, status, schema_id, schema_name, shard, n)
  SELECT account_id, status, schema_id, schema_name, hashtext(id::text) & 15, count(*)
  FROM extractions GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
INSERT INTO extraction_day_counts (account_id, day, shard, n)
  SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, hashtext(id::text) & 15, count(*)
  FROM extractions GROUP BY 1, 2, 3;--> statement-breakpoint
-- Rows are updated two or three times in their first seconds (claimed, then finished): free
-- space on each page keeps the new versions beside the old, and vacuum runs after a small
-- share of the table has changed rather than the default 20%, so index-only scans find
-- pages marked all-visible and dead versions do not pile up in a table of millions.
ALTER TABLE extractions SET (
  fillfactor = 70,
  autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_insert_scale_factor = 0.01,
  autovacuum_analyze_scale_factor = 0.01
);--> statement-breakpoint
-- Small tables updated constantly: room on each page for HOT updates, and vacuum after every
-- thousand dead versions rather than a share of the table.
ALTER TABLE extraction_counts SET (
  fillfactor = 50,
  autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 1000
);--> statement-breakpoint
ALTER TABLE extraction_day_counts SET (
  fillfactor = 50,
  autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 1000
);
