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
-- Inserts and deletes are counted once per statement, from its transition table: a row-level
-- trigger would update the same counter row once per row of a bulk insert or of an account's
-- cascade, and each of those versions stays in the row's chain until the transaction ends, so
-- a 50,000-row insert took 90 s instead of 3. Each statement's counter rows are updated in key
-- order, so concurrent statements cannot deadlock on them.
CREATE FUNCTION extraction_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign bigint := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO extraction_counts (account_id, status, schema_id, schema_name, shard, n)
  SELECT account_id, status, schema_id, schema_name, hashtext(id::text) & 15, sign * count(*)
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
-- Status changes move one row at a time (every transition is a one-row UPDATE), and a trigger
-- with a column list cannot have a transition table: row level, only when the status changes.
CREATE FUNCTION extraction_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO extraction_counts (account_id, status, schema_id, schema_name, shard, n)
  VALUES (OLD.account_id, OLD.status, OLD.schema_id, OLD.schema_name, hashtext(OLD.id::text) & 15, -1),
         (NEW.account_id, NEW.status, NEW.schema_id, NEW.schema_name, hashtext(NEW.id::text) & 15, 1)
  -- Key order, as above: pending → processing and processing → pending at once cannot deadlock.
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, status, schema_id, schema_name, shard)
  DO UPDATE SET n = extraction_counts.n + excluded.n;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Creates wait for this migration's commit rather than slip between the backfill and the trigger.
LOCK TABLE extractions IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TRIGGER extraction_counts_inserted AFTER INSERT ON extractions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION extraction_counts_changed();--> statement-breakpoint
CREATE TRIGGER extraction_counts_deleted AFTER DELETE ON extractions
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION extraction_counts_changed();--> statement-breakpoint
-- The day never changes (created_at is never updated), so updates only move extraction_counts.
CREATE TRIGGER extraction_counts_moved AFTER UPDATE OF status, schema_id, schema_name ON extractions
  FOR EACH ROW WHEN ((OLD.status, OLD.schema_id, OLD.schema_name) IS DISTINCT FROM (NEW.status, NEW.schema_id, NEW.schema_name))
  EXECUTE FUNCTION extraction_counts_moved();--> statement-breakpoint
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
