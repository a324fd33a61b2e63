/** Webhook endpoints, the outbox and delivery attempts: packages/webhooks owns them. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { accounts } from './accounts.ts';

/**
 * Webhook endpoints (docs/webhooks.md). The signing secret is kept as is, not hashed: every
 * delivery is signed with it (HMAC), so the service needs the secret itself, like any
 * Standard Webhooks sender. It is shown to the client only on creation and rotation.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull().default(true),
    secret: text('secret').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    check(
      'webhook_endpoints_events_check',
      sql`cardinality(${t.events}) > 0 and ${t.events} <@ array['extraction.completed', 'extraction.failed', 'extraction.reviewed']::text[]`,
    ),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * The outbox: one row per extraction that reached a final state while its account had an
 * endpoint subscribed. Written in the same transaction as the transition, so no final state
 * goes unannounced even if the process dies a moment later. `body` is the exact JSON sent (the
 * same bytes on every retry). No foreign key to the extraction: deleting it recalls nothing.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    // The event id: `webhook-id` on every attempt and `id` in the body.
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    extractionId: uuid('extraction_id').notNull(),
    type: text('type').notNull(),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
);

/**
 * One event on its way to one endpoint: the unit the delivery queue works on (its id is the
 * job id). `enqueuedAt` null means the relay has not handed it to the queue yet.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    enqueuedAt: ts('enqueued_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_messages_event_endpoint_idx').on(t.eventId, t.endpointId),
    // The relay's scan: only messages not yet handed to the queue.
    index('webhook_messages_unqueued_idx')
      .on(t.createdAt)
      .where(sql`${t.enqueuedAt} is null`),
    check('webhook_messages_status_check', sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

/**
 * Every delivery attempt, as `GET /webhooks/{id}/deliveries` lists it. `status` is what the
 * message came to with this attempt: `pending` (in flight, or failed with a retry to follow),
 * `delivered` (a 2xx) or `failed` (the last attempt failed; no more follow).
 */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    type: text('type').notNull(),
    attempt: integer('attempt').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_attempts_endpoint_created_idx').on(
      t.endpointId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    check('webhook_attempts_status_check', sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookMessageRow = typeof webhookMessages.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
