import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { isDatabaseUnavailable, type Db } from '@xt/db';
import { startPeriodic, type Periodic } from '@xt/runtime';

const BATCH = 1000;

/**
 * Deletes expired Idempotency-Keys in small batches (short transactions, no long lock on a big
 * table). Every API process sweeps; SKIP LOCKED keeps them from queueing behind each other.
 */
export async function sweepExpiredKeys(db: Db): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with doomed as (
        select account_id, key from idempotency_keys
        where expires_at <= now()
        limit ${BATCH}
        for update skip locked
      )
      delete from idempotency_keys k using doomed d
      where k.account_id = d.account_id and k.key = d.key`);
    const deleted = result.rowCount ?? 0;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/** Runs the sweep every `intervalMs` until stopped; a failed sweep is retried next time. */
export function startKeySweep(db: Db, intervalMs: number, logger: Logger): Periodic {
  return startPeriodic(
    async () => {
      const n = await sweepExpiredKeys(db);
      if (n > 0) logger.info({ deleted: n }, 'expired idempotency keys removed');
    },
    {
      name: 'idempotency-sweep',
      intervalMs,
      logger,
      firstDelayMs: intervalMs,
      jitter: 0.2,
      isOutage: isDatabaseUnavailable,
      outageMessage: 'cannot reach PostgreSQL; retrying every interval',
    },
  );
}
