/**
 * What an extraction's jobs keep beside its row (stored preparations, batch rounds, page
 * windows): packages/extractions owns them.
 */
import type { GroundingPage, ImagesAsText, ModelUsage } from '@xt/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ts, bytea } from './columns.ts';
import { accounts } from './accounts.ts';
import { extractions } from './extractions.ts';

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
