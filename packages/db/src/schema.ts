/**
 * Database schema, one file per owner of its tables.
 *
 * Shapes worth knowing:
 * - `schemas.structure` and the extraction snapshots are `json`, not `jsonb`: the API
 *   promises the structure back exactly as submitted (key order, "3" vs 3), and `jsonb`
 *   reorders keys (docs/api.md#schemas). Output is `json` too, so fields come back in the schema's order.
 * - Timestamps have millisecond precision: the API prints milliseconds and orders by
 *   (created_at, id); keeping microseconds would make equal-looking rows sort by invisible digits.
 * - Extractions keep `schema_id` without a foreign key, plus a snapshot of the schema's name
 *   and structure: deleting or editing a schema must never change an extraction already made.
 *   A bundle split into its documents (docs/split.md) has no `schema_id`: its classes name
 *   their schemas, snapshotted in `split`, and each child has its class's snapshot.
 *
 * One file per owner under schema/ (docs/architecture.md#who-owns-each-table); this file
 * re-exports them, and drizzle-kit reads it (drizzle.config.ts).
 */
export * from './schema/accounts.ts';
export * from './schema/api.ts';
export * from './schema/blob-store.ts';
export * from './schema/extractions.ts';
export * from './schema/extractions-work.ts';
export * from './schema/webhooks.ts';
