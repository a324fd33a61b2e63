import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { webhookEvents, webhookMessages, type Db } from '@xt/db';
import { DELIVER_WEBHOOK_JOB, deliverWebhookJobOptions } from '@xt/queue';
import { startPeriodic, type Periodic } from '@xt/runtime';

const BATCH = 200;
/** A message handed to the queue this long ago whose job has vanished (Redis lost it). */
const LOST_AFTER = '10 minutes';
const LOST_CHECK_EVERY = 60;

interface Message {
  id: string;
  accountId: string;
}

/**
 * Moves recorded messages from the outbox into the delivery queue. Every process running
 * delivery workers polls, so a message recorded by a worker that died right after committing
 * is picked up by any other. Rows are claimed with SKIP LOCKED inside a transaction that also
 * enqueues them: if Redis refuses, the claim rolls back and the next round tries again; the
 * message id is the job id, so a message enqueued twice is still one job.
 */
export function createRelay(deps: { db: Db; queue: Queue; retries: number; logger: Logger }) {
  // The account rides along so the delivery workers can share their slots fairly between
  // accounts before reading anything (fair-share.ts).
  const add = (messages: Message[]) =>
    deps.queue.addBulk(
      messages.map(({ id, accountId }) => ({
        name: DELIVER_WEBHOOK_JOB,
        data: { messageId: id, accountId },
        opts: deliverWebhookJobOptions(id, deps.retries),
      })),
    );
  const message = { id: webhookMessages.id, accountId: webhookEvents.accountId };

  async function relayNew(): Promise<number> {
    return deps.db.transaction(async (tx) => {
      const rows = await tx
        .select(message)
        .from(webhookMessages)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookMessages.eventId))
        .where(isNull(webhookMessages.enqueuedAt))
        .orderBy(asc(webhookMessages.createdAt))
        .limit(BATCH)
        .for('update', { of: webhookMessages, skipLocked: true });
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      await add(rows);
      await tx
        .update(webhookMessages)
        .set({ enqueuedAt: sql`now()` })
        .where(inArray(webhookMessages.id, ids));
      return ids.length;
    });
  }

  /** Pending messages whose job is gone from Redis (a flushed or replaced Redis) are re-added. */
  async function recoverLost(): Promise<number> {
    const rows = await deps.db
      .select(message)
      .from(webhookMessages)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookMessages.eventId))
      .where(
        and(
          eq(webhookMessages.status, 'pending'),
          lt(webhookMessages.enqueuedAt, sql`now() - ${LOST_AFTER}::interval`),
        ),
      )
      .limit(BATCH);
    const lost: Message[] = [];
    for (const row of rows) if (!(await deps.queue.getJob(row.id))) lost.push(row);
    if (lost.length > 0) {
      await add(lost);
      deps.logger.warn(
        { count: lost.length },
        'webhook deliveries re-enqueued after their jobs vanished',
      );
    }
    return lost.length;
  }

  let rounds = 0;
  async function runOnce(): Promise<number> {
    let moved = await relayNew();
    if (++rounds % LOST_CHECK_EVERY === 0) moved += await recoverLost();
    return moved;
  }

  return {
    runOnce,
    /** Every failure counts as an outage: one warning until a round succeeds again. */
    start: (intervalMs: number): Periodic =>
      startPeriodic(runOnce, {
        name: 'webhook relay',
        intervalMs,
        logger: deps.logger,
        firstDelayMs: 0,
      }),
  };
}
