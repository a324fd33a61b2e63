import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@xt/db';

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

/** Runs the sweep every `intervalMs` until stopped. A failed sweep is retried next time. */
export function startKeySweep(db: Db, intervalMs: number, logger: Logger): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpiredKeys(db)
      .then((n) => {
        if (n > 0) logger.info({ deleted: n }, 'expired idempotency keys removed');
      })
      .catch((err: unknown) => logger.warn({ err }, 'idempotency key sweep failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
