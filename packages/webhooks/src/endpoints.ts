import { and, count, eq, sql } from 'drizzle-orm';
import type { WebhookEventType } from '@xt/contract';
import { webhookEndpoints, type Db, type WebhookEndpointRow } from '@xt/db';

/**
 * An account's webhook endpoints (docs/webhooks.md), as the API manages them: every write to
 * `webhook_endpoints` is here, beside the delivery that reads them. Each call is scoped to the
 * account; another account's endpoint is absent (undefined, false), which the API answers 404.
 */
export interface EndpointFields {
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
}

/** A connection or a transaction. */
type Reader = Pick<Db, 'select'>;

export async function createEndpoint(
  db: Db,
  accountId: string,
  fields: EndpointFields & { secret: string },
): Promise<WebhookEndpointRow> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ accountId, ...fields })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function findEndpoint(
  db: Db,
  accountId: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id)));
  return row;
}

export async function updateEndpoint(
  db: Db,
  accountId: string,
  id: string,
  patch: Partial<EndpointFields> & { secret?: string },
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id)))
    .returning();
  return row;
}

/** False when the account has no such endpoint. */
export async function deleteEndpoint(db: Db, accountId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return deleted.length > 0;
}

/** How many endpoints the account has, for its bound (MAX_WEBHOOKS_PER_ACCOUNT). */
export async function countEndpoints(db: Reader, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId));
  return row?.n ?? 0;
}
