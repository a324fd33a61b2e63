import { randomUUID } from 'node:crypto';
import { and, arrayContains, eq, sql, type SQL } from 'drizzle-orm';
import {
  formatTimestamp,
  serializeSingleRecord,
  type WebhookEvent,
  type WebhookEventType,
} from '@xt/contract';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  webhookEndpoints,
  webhookEvents,
  webhookMessages,
  type Db,
  type ExtractionRow,
} from '@xt/db';

/** A transaction or the database itself: the event must be written with the transition. */
type Executor = Pick<Db, 'select' | 'insert'>;

/**
 * Records the event of an extraction that just reached a final state, with one message per
 * enabled endpoint of its account subscribed to that event. Call it inside the transaction
 * that made the transition, so the two commit together. Accounts without such an endpoint
 * get nothing written. Returns the event id, if one was recorded.
 */
export async function recordFinalEvent(
  tx: Executor,
  row: ExtractionRow,
): Promise<string | undefined> {
  if (row.status !== 'completed' && row.status !== 'failed') return undefined;
  return recordEvent(tx, row, `extraction.${row.status}`);
}

/**
 * Records `type` for `row` as it now is, with one message per enabled endpoint of its account
 * subscribed to it; nothing when there is none. Call it inside the transaction that made the
 * change the event announces (a final state, a review).
 */
export async function recordEvent(
  tx: Executor,
  row: ExtractionRow,
  type: WebhookEventType,
): Promise<string | undefined> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.accountId, row.accountId),
        eq(webhookEndpoints.enabled, true),
        arrayContains(webhookEndpoints.events, [type]),
      ),
    );
  if (endpoints.length === 0) return undefined;

  const id = randomUUID();
  const createdAt = new Date();
  const event: WebhookEvent = {
    id,
    type,
    createdAt: formatTimestamp(createdAt),
    data: serializeSingleRecord(row),
    metadata: row.metadata,
  };
  const body = JSON.stringify(event);
  await tx
    .insert(webhookEvents)
    .values({ id, accountId: row.accountId, extractionId: row.id, type, body, createdAt });
  await tx
    .insert(webhookMessages)
    .values(endpoints.map((endpoint) => ({ eventId: id, endpointId: endpoint.id })));
  return id;
}

/**
 * True for an extraction whose account has no enabled endpoint subscribed to `type`. A final
 * transition guarded by it has no event to record and can run as one statement instead of a
 * transaction; when it matches nothing the caller falls back to the transaction with
 * recordFinalEvent. The subquery sees every endpoint committed before the UPDATE starts, as
 * the transaction's own select would. `accountId` is the updated row's account column (the
 * caller's table, which this package does not touch).
 */
export function noEndpointSubscribes(type: WebhookEventType, accountId: PgColumn): SQL {
  return sql`not exists (select 1 from ${webhookEndpoints} where ${webhookEndpoints.accountId} = ${accountId} and ${webhookEndpoints.enabled} and ${arrayContains(webhookEndpoints.events, [type])})`;
}
