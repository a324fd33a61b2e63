import { FINAL_STATUSES } from '@xt/contract';
import type { Db, ExtractionRow } from '@xt/db';
import type { CompletionWaiter } from '@xt/queue';
import { findExtraction } from './find.ts';

/** Between two looks at the database while waiting: covers a lost pub/sub wake-up. */
const RECHECK_MS = 5_000;
/** The same while the completion subscriber is disconnected and no wake-up can arrive. */
const OFFLINE_RECHECK_MS = 1_000;

/** Between looks at the database: short while wake-ups cannot arrive (subscriber offline). */
export function recheckMs(waiter: CompletionWaiter): number {
  return waiter.live ? RECHECK_MS : OFFLINE_RECHECK_MS;
}

/**
 * Wakes on each "finished" message for the extraction (or every few seconds) and reads the row,
 * until it is final, the deadline passes, the caller goes away or the waiter closes (a
 * shutting-down API). Returns the last row read, or undefined once it was deleted.
 *
 * `firstWake` is a wait the caller started before enqueueing, so a fast worker cannot finish
 * unnoticed between the enqueue and the first look.
 */
export async function waitForFinal(
  deps: { db: Db; waiter: CompletionWaiter },
  accountId: string,
  id: string,
  opts: { deadline: number; firstWake: Promise<boolean>; signal: AbortSignal },
): Promise<ExtractionRow | undefined> {
  let wake = opts.firstWake;
  for (;;) {
    await wake;
    const row = await findExtraction(deps.db, accountId, id);
    if (!row || FINAL_STATUSES.has(row.status)) return row;
    const remaining = opts.deadline - Date.now();
    if (remaining <= 0 || opts.signal.aborted || deps.waiter.closed) return row;
    wake = deps.waiter.wait(id, Math.min(recheckMs(deps.waiter), remaining), opts.signal);
  }
}
