import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { ExtractionFailure } from '@xt/contract';
import { webhookAttempts, webhookEndpoints, webhookEvents, webhookMessages, type Db } from '@xt/db';
import { safePost, type Allowlist, type LookupAll } from '@xt/fetcher';
import { forJobFailure, type DeliverWebhookPayload } from '@xt/queue';
import { scrubText } from '@xt/runtime';
import { webhookHeaders } from './signing.ts';

export interface DeliveryDeps {
  db: Db;
  allowlist: Allowlist;
  /** A 2xx must arrive within this long (10 s by default). */
  timeoutMs: number;
  logger: Logger;
  userAgent?: string;
  /** Stand-in for DNS, for tests. */
  lookup?: LookupAll;
}

type Outcome =
  { delivered: true; status: number } | { delivered: false; status: number | null; error: string };

/**
 * The delivery job: one attempt at sending one event to one endpoint, recorded before it is
 * made (so an attempt cut short by a crash still shows) and updated with its outcome. A failed
 * attempt throws, and BullMQ retries it after the schedule's next delay; the last one marks the
 * message failed. The URL goes through the safe fetcher again on every attempt.
 */
export function createDeliveryProcessor(deps: DeliveryDeps) {
  async function deliverWebhook(job: Job, { messageId }: DeliverWebhookPayload): Promise<string> {
    const [found] = await deps.db
      .select({
        status: webhookMessages.status,
        endpointId: webhookMessages.endpointId,
        eventId: webhookEvents.id,
        accountId: webhookEvents.accountId,
        type: webhookEvents.type,
        body: webhookEvents.body,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        enabled: webhookEndpoints.enabled,
      })
      .from(webhookMessages)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookMessages.eventId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookMessages.endpointId))
      .where(eq(webhookMessages.id, messageId));
    // Endpoint deleted (the message went with it), or already settled by an earlier run.
    if (!found) return 'gone';
    if (found.status !== 'pending') return found.status;
    const log = deps.logger.child({
      messageId,
      eventId: found.eventId,
      endpointId: found.endpointId,
    });

    const [counted] = await deps.db
      .update(webhookMessages)
      .set({ attempts: sql`${webhookMessages.attempts} + 1`, updatedAt: sql`now()` })
      .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.status, 'pending')))
      .returning({ attempts: webhookMessages.attempts });
    if (!counted) return 'settled';
    // An attempt still `pending` from an earlier run was cut short (its worker stopped).
    await deps.db
      .update(webhookAttempts)
      .set({ error: 'The attempt was interrupted before an answer arrived.' })
      .where(
        and(
          eq(webhookAttempts.messageId, messageId),
          eq(webhookAttempts.status, 'pending'),
          isNull(webhookAttempts.error),
        ),
      );

    const [attempt] = await deps.db
      .insert(webhookAttempts)
      .values({
        messageId,
        endpointId: found.endpointId,
        accountId: found.accountId,
        eventId: found.eventId,
        type: found.type,
        attempt: counted.attempts,
        status: 'pending',
      })
      .returning({ id: webhookAttempts.id });
    if (!attempt) throw new Error('insert returned no row');

    const outcome: Outcome = found.enabled
      ? await send(deps, found.url, found.secret, found.eventId, found.body)
      : { delivered: false, status: null, error: 'Not sent: the endpoint is disabled.' };
    const last = !found.enabled || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const status = outcome.delivered ? 'delivered' : last ? 'failed' : 'pending';

    await deps.db.transaction(async (tx) => {
      await tx
        .update(webhookAttempts)
        .set({
          status,
          responseStatus: outcome.status,
          error: outcome.delivered ? null : outcome.error,
        })
        .where(eq(webhookAttempts.id, attempt.id));
      if (status !== 'pending')
        await tx
          .update(webhookMessages)
          .set({ status, updatedAt: sql`now()` })
          .where(
            and(eq(webhookMessages.id, messageId), inArray(webhookMessages.status, ['pending'])),
          );
    });
    if (outcome.delivered) {
      log.info({ attempt: counted.attempts, status: outcome.status }, 'webhook delivered');
      return 'delivered';
    }
    log.warn({ attempt: counted.attempts, error: outcome.error, last }, 'webhook attempt failed');
    if (status === 'failed') return 'failed';
    throw new Error(outcome.error);
  }
  // BullMQ stores what is thrown (message and stack) on the job.
  return (job: Job, payload: DeliverWebhookPayload): Promise<string> =>
    deliverWebhook(job, payload).catch((err: unknown) => {
      throw forJobFailure(err);
    });
}

async function send(
  deps: DeliveryDeps,
  url: string,
  secret: string,
  eventId: string,
  body: string,
): Promise<Outcome> {
  try {
    const { status } = await safePost(url, {
      allowlist: deps.allowlist,
      timeoutMs: deps.timeoutMs,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': deps.userAgent ?? 'extraction-service-webhooks/1',
        ...webhookHeaders(secret, eventId, body),
      },
      ...(deps.lookup ? { lookup: deps.lookup } : {}),
    });
    if (status >= 200 && status <= 299) return { delivered: true, status };
    return { delivered: false, status, error: `The endpoint answered HTTP ${status}.` };
  } catch (err) {
    if (err instanceof ExtractionFailure)
      return { delivered: false, status: null, error: scrubText(err.message) };
    throw err;
  }
}
