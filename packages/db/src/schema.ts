/**
 * Database schema. Kept free of relative imports so drizzle-kit can load it on its own.
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
 */
import type {
  Citations,
  ExtractionWarning,
  FailureCode,
  FormatName,
  GroundingPage,
  ImagesAsText,
  ModelUsage,
  PublicModel,
  ReviewPolicy,
  ReviewReason,
  StoredSplit,
  StoredSplitPages,
  Structure,
  UploadedFile,
} from '@xt/contract';
// The registry alone (no zod), so drizzle-kit loads it as it loads this file.
import { SOURCE_TYPES } from '@xt/contract/source-kinds';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** `'a', 'b'` for an `in (...)` check; the values are the registry's own names, never input. */
const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Only a SHA-256 of each key is stored (keys are 190+ bits of randomness, so a slow KDF adds
 * nothing), with a short display prefix so people can tell keys apart in `keys list`.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    hash: bytea('hash').notNull(),
    displayPrefix: text('display_prefix').notNull(),
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    label: text('label'),
    createdAt: ts('created_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('api_keys_hash_idx').on(t.hash),
    check('api_keys_scope_check', sql`${t.scope} in ('read', 'write')`),
  ],
);

/**
 * People who sign in to the dashboard. Each belongs to one account and sees only its data.
 * `email` is stored lower-cased (unique), so sign-in is case-insensitive without citext.
 * `password_hash` is a self-describing scrypt string (`scrypt$N$r$p$salt$hash`), so the cost
 * parameters can be raised later without invalidating stored hashes.
 */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Dashboard sessions, server-side so signing out (deleting the row) ends them at once. Only a
 * SHA-256 of the cookie's random token is stored: a database dump opens no session.
 * `expires_at` slides forward with use, never past `created_at` + the absolute lifetime.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: bytea('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_idx').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

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
 * Uploaded files, as the PostgreSQL blob store keeps them (packages/blob-store). `blobs` is one
 * row per stored file; its bytes are `blob_chunks` rows of at most 1 MiB, so a file is written
 * and read as a stream of bounded pieces (never one 50 MiB value in memory, and never a bytea
 * parameter bigger than a chunk). Written in the same transaction as the extraction that uses
 * it. Extractions point here by `file_ref` without a foreign key: the reference is opaque, so
 * another store (an object store) can hold the bytes instead; the upload sweep removes blobs
 * no extraction references (docs/uploads.md).
 */
export const blobs = pgTable(
  'blobs',
  {
    ref: uuid('ref').primaryKey(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  // The orphan sweep walks blobs oldest first.
  (t) => [index('blobs_created_idx').on(t.createdAt)],
);

export const blobChunks = pgTable(
  'blob_chunks',
  {
    ref: uuid('ref')
      .notNull()
      .references(() => blobs.ref, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ref, t.seq] })],
);

export const extractions = pgTable(
  'extractions',
  {
    // Generated by the API, not the database: it is also the BullMQ job id.
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    // Null only for a split parent (the check below): its classes name their own schemas.
    schemaId: uuid('schema_id'),
    // A split parent's are '' and the classification call's structure (docs/split.md), so
    // that every other reader keeps a name and a structure to show.
    schemaName: text('schema_name').notNull(),
    schemaStructure: json('schema_structure').$type<Structure>().notNull(),
    // A bundle split into its documents (docs/split.md): the classes asked for, each with a
    // snapshot of its schema's id, name and structure taken at create, so that a later edit or
    // deletion of a schema does not change what the bundle's children read. json, not jsonb,
    // for the structures' key order.
    split: json('split').$type<StoredSplit>(),
    // A document of a split bundle: its parent (deleted with it, by cascade: the delete also
    // takes the children's jobs and bytes, packages/extractions/src/delete.ts) and its pages in
    // the bundle (and the bundle's page count), so its own PDF is read with the bundle's numbers.
    parentId: uuid('parent_id').references((): AnyPgColumn => extractions.id, {
      onDelete: 'cascade',
    }),
    pages: jsonb('pages').$type<StoredSplitPages>(),
    // The kinds of the registry (docs/sources.md); the check below holds the database to it,
    // and a release that adds a kind regenerates that check as a migration.
    sourceType: text('source_type', { enum: SOURCE_TYPES }).notNull(),
    source: text('source').notNull(),
    instruction: text('instruction'),
    // The client's labels (at most 16 short strings). jsonb, unlike the snapshots: key order
    // carries no meaning here, and jsonb can be queried by key later. Never sent to the model.
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    // An uploaded source: `file` is what the records show (kept for good; `removedAt` is added
    // when the bytes go), `file_ref` where the bytes are (null once removed after
    // UPLOAD_RETENTION_HOURS). `source` holds the file name.
    file: jsonb('file').$type<UploadedFile>(),
    // The format of a file source, recognised by its content (docs/sources.md): known at create
    // for an upload, written by the worker once it has fetched a URL. Null for typed text and
    // webpages. Not constrained here: formats are added more often than kinds.
    format: text('format').$type<FormatName>(),
    fileRef: uuid('file_ref'),
    model: text('model').$type<PublicModel>().notNull(),
    // Grounded output (docs/citations.md). `citations` is json, not jsonb, so its pointers keep
    // the output's order; `warnings` lists what the service knows it left undone.
    citationsRequested: boolean('citations_requested').notNull().default(false),
    citations: json('citations').$type<Citations>(),
    warnings: json('warnings').$type<ExtractionWarning[]>(),
    // Page previews for the dashboard's review view (pdf and image sources with citations):
    // 1-based page number → blob ref in the blob store. Removed with the upload's bytes.
    pageImages: json('page_images').$type<Record<string, string>>(),
    status: text('status', { enum: ['pending', 'processing', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    output: json('output'),
    totalTokens: bigint('total_tokens', { mode: 'number' }).notNull().default(0),
    // What the provider reported, summed over every call (docs/cost.md): `total_tokens` stays
    // input + output. Cached input tokens are part of the input ones, billed at a lower price.
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    cachedInputTokens: bigint('cached_input_tokens', { mode: 'number' }).notNull().default(0),
    // Estimates in US dollars from the price table in force when the tokens were spent, kept
    // rather than recomputed so a later price change does not rewrite yesterday's cost.
    // `saved_usd` is what a reused answer would have cost (the original's cost) or what the
    // batch price saved against the standard one.
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    savedUsd: doublePrecision('saved_usd').notNull().default(0),
    priority: text('priority', { enum: ['standard', 'batch'] })
      .notNull()
      .default('standard'),
    // Reuse of finished answers (docs/reuse.md). `reuse_key` is a SHA-256 of everything but the
    // schema structure that decides the answer (account, source content, instruction, model,
    // citations, pipeline version); the structure is compared as stored text beside it, since
    // the API does not hold it before the insert reads the snapshot. Null until known: a URL
    // source's content is only known once the worker fetched it.
    reuseKey: bytea('reuse_key'),
    // The extraction whose answer this one took; no foreign key, so deleting the original
    // leaves this record as it is (it only stops further reuse).
    reusedFrom: uuid('reused_from'),
    // How old an answer this extraction may take, in seconds; null when the request said
    // `cache: false`. Kept on the row for the worker, which looks for URL sources.
    cacheMaxAgeSeconds: integer('cache_max_age_seconds'),
    charged: boolean('charged').notNull().default(false),
    // Progress of a `processing` extraction (docs/api.md#progress): pages whose model calls have
    // finished, of the pages the source was read as. Reset by every claim; the worker writes
    // them throttled (at most once a second per job), not once per page.
    pagesDone: integer('pages_done').notNull().default(0),
    pagesTotal: integer('pages_total').notNull().default(0),
    errorCode: text('error_code').$type<FailureCode>(),
    errorMessage: text('error_message'),
    // Human review (docs/review.md): null for an extraction never queued. Set with the
    // completion when the schema's review settings ask for it; `reviewed_output` is the output
    // with the reviewer's corrections, kept beside `output` (as read), and null when rejected.
    reviewStatus: text('review_status', { enum: ['needs_review', 'approved', 'rejected'] }),
    reviewReasons: json('review_reasons').$type<ReviewReason[]>(),
    reviewedOutput: json('reviewed_output'),
    reviewedAt: ts('reviewed_at'),
    reviewedBy: text('reviewed_by'),
    reviewNote: text('review_note'),
    attempts: integer('attempts').notNull().default(0),
    requestId: text('request_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    // The list pages, in their exact order (created_at, then id): a plan that walks one of
    // these never sorts, and does not need statistics to see that (docs/scaling.md).
    index('extractions_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    index('extractions_account_schema_idx').on(
      t.accountId,
      t.schemaId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('extractions_account_status_idx').on(
      t.accountId,
      t.status,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    // The review queue (GET /reviews): only queued extractions, in list order.
    index('extractions_review_idx')
      .on(t.accountId, t.reviewStatus, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.reviewStatus} is not null`),
    index('extractions_schema_name_trgm_idx').using('gin', sql`${t.schemaName} gin_trgm_ops`),
    // A bundle's children (GET /v1/extractions?parent_id=), in list order; the cascade's look-up.
    index('extractions_parent_idx')
      .on(t.parentId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.parentId} is not null`),
    // The reconciler scans for unfinished work across all accounts.
    index('extractions_unfinished_idx')
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('pending', 'processing')`),
    // The upload sweep: final extractions whose bytes are still stored, oldest first.
    index('extractions_file_retention_idx')
      .on(t.finishedAt)
      .where(sql`${t.fileRef} is not null`),
    index('extractions_file_ref_idx').on(t.fileRef),
    // The reuse look-up, on every create with a known source and every URL job: the newest
    // original answer with the key. Only completed originals are indexed (a copy's answer is
    // its original's, which is what is reused), so the index grows with distinct work, not
    // with requests, and a miss is one probe.
    index('extractions_reuse_idx')
      .on(t.accountId, t.reuseKey, t.finishedAt.desc())
      .where(sql`${t.status} = 'completed' and ${t.reusedFrom} is null`),
    check(
      'extractions_status_check',
      sql`${t.status} in ('pending', 'processing', 'completed', 'failed')`,
    ),
    check('extractions_source_type_check', sql.raw(`source_type in (${sqlList(SOURCE_TYPES)})`)),
    // `charged` is true exactly when completed with work of its own (docs/api.md#states): a
    // reused answer is completed uncharged (docs/reuse.md). The database holds the line too.
    check(
      'extractions_charged_check',
      sql`${t.charged} = (${t.status} = 'completed' and ${t.reusedFrom} is null)`,
    ),
    check('extractions_priority_check', sql`${t.priority} in ('standard', 'batch')`),
    // Exactly a split parent goes without a schema.
    check(
      'extractions_split_schema_check',
      sql`(${t.schemaId} is null) = (${t.split} is not null)`,
    ),
    // A child has its pages; a child is never itself split.
    check(
      'extractions_split_child_check',
      sql`(${t.parentId} is null) = (${t.pages} is null) and (${t.parentId} is null or ${t.split} is null)`,
    ),
    check(
      'extractions_review_status_check',
      sql`${t.reviewStatus} in ('needs_review', 'approved', 'rejected')`,
    ),
  ],
);

/**
 * Preparations of files the worker read before (docs/reuse.md#preparations): the text and
 * page images a PDF, an image or a converted document became, with OCR when citations asked
 * for it, so the same content sent again by the account is not read again.
 * - The key is a SHA-256 of the account, the content's hash and type, and everything that
 *   decides how it is read (model, citations, reading version, the worker's reading settings);
 *   the account leads the primary key, so one account's entries are a range of it.
 * - `extraction_id` is the extraction whose job stored it, with a cascading foreign key:
 *   deleting that extraction (or its account) deletes what was read from its source.
 * - Bounded in age (nothing older than the upload retention is read, and the upload sweep
 *   deletes it), per entry and per account in bytes (the oldest go first); `size` is the
 *   stored text's length, summed for the account bound.
 * - `body` is text, not json: it is only ever read back whole, and PostgreSQL compresses it.
 */
export const preparedSources = pgTable(
  'prepared_sources',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: bytea('key').notNull(),
    extractionId: uuid('extraction_id')
      .notNull()
      .references(() => extractions.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    size: integer('size').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    // The sweep of expired entries, oldest first.
    index('prepared_sources_created_idx').on(t.createdAt),
    // Deleting an extraction finds what its job stored.
    index('prepared_sources_extraction_idx').on(t.extractionId),
  ],
);

/**
 * How many extractions each account has, by schema (and its name as snapshotted), status and
 * shard, so a list page's `meta.total` is a sum of a few rows instead of a count of every
 * matching extraction (docs/scaling.md). Kept by a trigger on `extractions` (migration
 * 0009), so every insert, delete and status change updates it in its own transaction: the
 * totals are exact, not estimates.
 * - `shard` (0–15, from the extraction id) spreads one account's updates over 16 rows per
 *   key: each row is locked until its transaction commits, and without shards every create
 *   and transition of a busy account would queue behind the last one's commit.
 * - No foreign key to `accounts`: deleting an account deletes its extractions, whose trigger
 *   writes here in the same statement, after the account row is already gone.
 */
export const extractionCounts = pgTable(
  'extraction_counts',
  {
    accountId: uuid('account_id').notNull(),
    status: text('status').notNull(),
    schemaId: uuid('schema_id').notNull(),
    schemaName: text('schema_name').notNull(),
    shard: integer('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.status, t.schemaId, t.schemaName, t.shard] })],
);

/**
 * How many extractions each account made on each UTC day, for the totals of date-filtered
 * lists (whole UTC days, docs/api.md#list-filters): the same trigger keeps it, on inserts and
 * deletes only, sharded the same way.
 */
export const extractionDayCounts = pgTable(
  'extraction_day_counts',
  {
    accountId: uuid('account_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    shard: integer('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.shard] })],
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

export type Account = typeof accounts.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type SchemaRow = typeof schemas.$inferSelect;
export type ExtractionRow = typeof extractions.$inferSelect;

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
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

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

/**
 * The rounds of a batch extraction's model calls (docs/batch.md): one row per batch sent to the
 * provider's batch interface. A row, not columns on the extraction, because one extraction
 * sends several rounds (continuations and repairs answer earlier rounds), each with its own
 * file and batch. No foreign key: the row outlives a deleted extraction until the provider's
 * batch is cancelled. Each provider step is recorded as it happens (the row with its requests
 * before the upload, `file_id` after it, `batch_id` after the create), so a worker killed
 * between two steps resumes from the last one and never sends a round twice.
 */
export const modelBatches = pgTable(
  'model_batches',
  {
    // Also the batch's `metadata.round` at the provider, by which a create whose answer was
    // lost is found again.
    id: uuid('id').primaryKey(),
    extractionId: uuid('extraction_id').notNull(),
    // custom_id → the chat-completions body sent on that line. `json`, not `jsonb`: the body
    // goes out as it was built, its keys in order (a structured output's properties are
    // answered in the schema's order; jsonb would sort them by length).
    requests: json('requests').$type<Record<string, unknown>>().notNull(),
    fileId: text('file_id'),
    batchId: text('batch_id'),
    // `open` (not yet at the provider), `submitted`, `done` (answers read), `cancelled`.
    status: text('status', { enum: ['open', 'submitted', 'done', 'cancelled'] })
      .notNull()
      .default('open'),
    // custom_id → the provider's answer body, `{ error }` for a line it failed, or
    // `{ standard }`: a failed line's answer from a standard call, kept so it is sent once.
    answers: jsonb('answers').$type<Record<string, unknown>>(),
    // Until when one run is sending this round: a second run of the same job (a stalled lock
    // handed it on) waits instead of sending it again; a killed run's lease lapses.
    leaseUntil: ts('lease_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('model_batches_extraction_idx').on(t.extractionId),
    // One round at the provider per extraction at a time: two runs cannot both open one.
    uniqueIndex('model_batches_one_open_idx')
      .on(t.extractionId)
      .where(sql`${t.status} in ('open', 'submitted')`),
    // The sweep that cancels the batches of deleted extractions.
    index('model_batches_unfinished_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('open', 'submitted')`),
  ],
);

export type ModelBatchRow = typeof modelBatches.$inferSelect;

/**
 * The page windows of a long `pdf` or `document` (docs/scaling.md#one-large-document): one row
 * per window whose job finished, written once by a conditional insert, so that a window run
 * twice (a retry, a stalled lock handed on) keeps the first run's answer and its tokens count
 * once. The extraction's job merges them in page order and charges their sum. Removed with the
 * extraction: a window that finishes after a delete has nothing to write into.
 */
export const extractionWindows = pgTable(
  'extraction_windows',
  {
    extractionId: uuid('extraction_id')
      .notNull()
      .references(() => extractions.id, { onDelete: 'cascade' }),
    // 0-based, in page order.
    windowIndex: integer('window_index').notNull(),
    // The document's own 1-based page numbers, both inclusive.
    firstPage: integer('first_page').notNull(),
    lastPage: integer('last_page').notNull(),
    // The window's answer against the relaxed structure (merged by the extraction's job), with
    // what the model said about its values and the lists it left unfinished.
    output: json('output'),
    annotations: jsonb('annotations').$type<WindowAnnotations>().notNull(),
    truncated: jsonb('truncated').$type<string[]>().notNull(),
    // The window's pages as read, to locate values in (citations asked for); null otherwise.
    grounding: jsonb('grounding').$type<GroundingPage[]>(),
    // Previews of the window's cited pages: `{ "<page>": "<blob ref>" }`.
    pageImages: jsonb('page_images').$type<Record<string, string>>(),
    // What a model that takes no images was sent in their place (OCR text), for the merged
    // record's IMAGES_READ_AS_TEXT warning; null when the window's images were sent as images.
    imagesAsText: jsonb('images_as_text').$type<ImagesAsText>(),
    tokens: integer('tokens').notNull(),
    usage: jsonb('usage').$type<ModelUsage>().notNull(),
    calls: integer('calls').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.extractionId, t.windowIndex] })],
);

/** A window's model annotations, as JSON: quotes and probabilities by pointer. */
export interface WindowAnnotations {
  quotes: [string, string][];
  probabilities: [string, number][] | null;
}

export type ExtractionWindowRow = typeof extractionWindows.$inferSelect;

/**
 * The PDF a long `document` was converted to, stored once by the extraction's job so that its
 * page windows read their pages from it instead of each converting the document again
 * (docs/scaling.md#one-large-document). Removed with the extraction (delete.ts removes the
 * bytes too) and by the upload sweep with the windows.
 */
export const extractionWindowSources = pgTable('extraction_window_sources', {
  extractionId: uuid('extraction_id')
    .primaryKey()
    .references(() => extractions.id, { onDelete: 'cascade' }),
  // The converted PDF in the blob store.
  ref: text('ref').notNull(),
  // A presentation's export: its second half are the slides' notes pages.
  notesPages: boolean('notes_pages').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Each page window's own PDF, its pages cut from the long `pdf` or `document` once by the
 * extraction's job, so that a window job reads only its pages and no worker holds the whole
 * document's (docs/scaling.md#one-large-document). A row per window, not a column of
 * `extraction_windows`: those rows are the windows' answers, written once each by the window
 * when it finishes (their insert-once is what counts its tokens once), while these are written
 * by the parent before any window runs. Not `extraction_window_sources` either, which holds one
 * PDF per extraction (a document converted whole, read by windows split before this table). Removed with the
 * extraction (delete.ts removes the bytes too) and by the upload sweep with the windows; `ref`
 * is indexed for the orphan sweep, which asks whether a blob is one of these.
 */
export const extractionWindowPdfs = pgTable(
  'extraction_window_pdfs',
  {
    extractionId: uuid('extraction_id')
      .notNull()
      .references(() => extractions.id, { onDelete: 'cascade' }),
    windowIndex: integer('window_index').notNull(),
    // The window's PDF in the blob store: the document's pages first_page to last_page, both
    // inclusive, and with notes_pages (a presentation's export) their notes pages after them.
    ref: text('ref').notNull(),
    firstPage: integer('first_page').notNull(),
    lastPage: integer('last_page').notNull(),
    notesPages: boolean('notes_pages').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.extractionId, t.windowIndex] }),
    index('extraction_window_pdfs_ref_idx').on(t.ref),
  ],
);
