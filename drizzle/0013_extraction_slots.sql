-- The bound on an account's unfinished extractions (MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT), held
-- exactly. The create's insert calls it for its status (null, which the column refuses, past the
-- bound). Before, the insert read the counters from its own snapshot, so a burst of concurrent
-- creates all read the same count and overshot the bound by up to the number in flight.
--
-- Each create holds a per-account advisory lock until it commits, and counts after taking it
-- (a statement of a PL/pgSQL function reads with a fresh snapshot, so it sees every create that
-- committed while this one waited). Far from the bound the lock is shared and creates do not
-- wait for each other: the inserts not yet visible are at most one per server connection, so a
-- count of `max_connections` or more below the bound cannot be overshot. Near it the lock is
-- exclusive: one create of the account at a time, each seeing all the others. A shared lock
-- cannot be upgraded without risking a deadlock, so a count that crossed into the near zone
-- while taking it counts the other holders (each at most one unseen insert) instead.
--
-- Written by hand: drizzle-kit does not generate functions.
CREATE FUNCTION take_extraction_slot(account uuid, bound bigint) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  lock_key bigint := hashtextextended('extraction slots ' || account::text, 0);
  room bigint := current_setting('max_connections')::bigint;
  active bigint;
BEGIN
  SELECT coalesce(sum(n), 0) INTO active FROM extraction_counts
    WHERE account_id = account AND status IN ('pending', 'processing');
  IF active + room <= bound THEN
    PERFORM pg_advisory_xact_lock_shared(lock_key);
    SELECT coalesce(sum(n), 0) INTO active FROM extraction_counts
      WHERE account_id = account AND status IN ('pending', 'processing');
    IF active + room <= bound THEN
      RETURN true;
    END IF;
    RETURN active + (
      SELECT count(*) FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND objsubid = 1
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND classid = ((lock_key >> 32) & 4294967295)::oid
        AND objid = (lock_key & 4294967295)::oid
    ) <= bound;
  END IF;
  PERFORM pg_advisory_xact_lock(lock_key);
  SELECT coalesce(sum(n), 0) INTO active FROM extraction_counts
    WHERE account_id = account AND status IN ('pending', 'processing');
  RETURN active < bound;
END
$$;
