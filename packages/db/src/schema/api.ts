/**
 * Schemas and Idempotency-Key records: apps/api owns them (packages/extractions reads a schema to
 * snapshot it into an extraction; docs/architecture.md#who-owns-each-table).
 */
import type { ReviewPolicy, Structure } from '@xt/contract';
import { sql } from 'drizzle-orm';
import { check, index, json, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts, bytea } from './columns.ts';
import { accounts } from './accounts.ts';

export const schemas = pgTable(
  'schemas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    structure: json('structure').$type<Structure>().notNull(),
    // When completed extractions are queued for human review (docs/review.md); null for never.
    review: json('review').$type<ReviewPolicy>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // The list query: one account's schemas, newest first, ties by id.
    index('schemas_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // Substring search on name (ILIKE '%…%') needs trigrams; a btree cannot serve it.
    index('schemas_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

/**
 * Idempotency-Key records (docs/idempotency.md): which resource a client's key created, and a
 * fingerprint of the request that created it.
 * - The primary key is (account, key): keys are scoped to the account, and the unique index is
 *   what makes concurrent duplicates safe across API processes: the row is inserted with
 *   `ON CONFLICT` in the same transaction as the resource row, so a second request with the key
 *   waits for the first to commit and then finds its resource instead of creating another.
 * - `resource_id` has no foreign key: it names an extraction or a schema, and a deleted resource
 *   must not take the key with it (a retry then learns the resource is gone, not that the key
 *   is new).
 * - `fingerprint` is a SHA-256 of the request (path, canonical body, a file's SHA-256), never
 *   the body itself: the table must not become a second copy of sources.
 * - `expires_at` is indexed for the sweep that deletes expired keys; an expired key that is
 *   still here counts as absent.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: bytea('fingerprint').notNull(),
    resourceType: text('resource_type', { enum: ['extraction', 'schema'] }).notNull(),
    resourceId: uuid('resource_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
    check(
      'idempotency_keys_resource_type_check',
      sql`${t.resourceType} in ('extraction', 'schema')`,
    ),
  ],
);

export type SchemaRow = typeof schemas.$inferSelect;
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
