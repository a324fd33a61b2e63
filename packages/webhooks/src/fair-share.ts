import { DelayedError, type Job } from 'bullmq';
import type { JobHandler } from '@xt/queue';

/** What the wrapper needs of a BullMQ job: its id, and to be set aside and brought back. */
type ParkableJob = Pick<Job, 'id' | 'moveToDelayed' | 'promote'>;

export interface FairShareOptions {
  /** Deliveries of one account in flight at once in this process. */
  perAccount: number;
  /** The longest one attempt can take (the receiver's timeout): when a slot frees at the latest. */
  attemptMs: number;
  now?: () => number;
}

interface Account {
  inFlight: number;
  /** Jobs this process set aside, oldest first, by id. */
  parked: Map<string, ParkableJob>;
  /** When the last job set aside comes back by itself. */
  parkedUntil: number;
}

/**
 * Shares a process's delivery slots between accounts: at most `perAccount` deliveries of one
 * account run at once, so receivers that hang (each for the whole timeout, on every retry) hold
 * only their own account's slots and every other account's events still find one free.
 *
 * A job whose account is at its share does not wait in its slot: it goes back to the queue as
 * delayed (BullMQ counts no attempt for that), behind whatever other accounts queued meanwhile.
 * It comes back when one of its account's deliveries in this process ends (promoted), or by
 * itself once a slot must have freed: the account's set-aside jobs are spread over the time its
 * share needs to send them at the worst (one attempt time per `perAccount` jobs), so a long
 * backlog behind a hung receiver is looked at about once per turn, not again and again.
 * `accountId` is read from the payload; a job without one (queued before it was added) runs
 * unshared.
 */
export function fairPerAccount<P extends { accountId?: string | undefined }>(
  handler: JobHandler<P>,
  options: FairShareOptions,
): JobHandler<P> {
  const now = options.now ?? Date.now;
  const accounts = new Map<string, Account>();
  const spacing = options.attemptMs / options.perAccount;

  function bringBackOne(account: Account): void {
    const next = account.parked.entries().next();
    if (next.done) return;
    const [id, job] = next.value;
    account.parked.delete(id);
    // Another process may have run it already, or its delay ran out: then try the next one.
    job.promote().catch(() => bringBackOne(account));
  }

  return async (job, payload, token, signal) => {
    const key = payload.accountId;
    if (!key) return handler(job, payload, token, signal);
    let account = accounts.get(key);
    if (!account) {
      account = { inFlight: 0, parked: new Map(), parkedUntil: 0 };
      accounts.set(key, account);
    }
    if (job.id) account.parked.delete(job.id);

    if (account.inFlight >= options.perAccount) {
      const at = now();
      account.parkedUntil = Math.max(at + options.attemptMs, account.parkedUntil + spacing);
      await job.moveToDelayed(account.parkedUntil, token);
      if (job.id) account.parked.set(job.id, job);
      // Tells BullMQ the job was moved on purpose: not a failure, no attempt spent.
      throw new DelayedError();
    }

    account.inFlight++;
    try {
      return await handler(job, payload, token, signal);
    } finally {
      account.inFlight--;
      bringBackOne(account);
      if (account.inFlight === 0 && account.parked.size === 0 && account.parkedUntil <= now())
        accounts.delete(key);
    }
  };
}
