import { randomUUID } from 'node:crypto';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { LimitFunction } from 'p-limit';
import type {
  ExtractionPriority,
  FormatName,
  PublicModel,
  SourceType,
  SplitRequest,
  StoredSplit,
  Structure,
  UploadedFile,
} from '@xt/contract';
import { splitRequestStructure } from '@xt/contract';
import type { BlobStore, DbExecutor } from '@xt/blob-store';
import { extractions, isNotNullViolation, schemas, type Db, type ExtractionRow } from '@xt/db';
import { TooManyActive, UnknownSchema, UnknownSplitSchema } from './errors.ts';
import { countUnfinished, jobPriority, unfinishedSql } from './unfinished.ts';

/** A create, validated by whoever received it (the API's body parsers). */
export interface NewExtraction {
  /** null exactly for a bundle split into its documents (`split`, docs/split.md). */
  schemaId: string | null;
  /** The classes a bundle is split into, each naming its schema or none. */
  split?: SplitRequest | undefined;
  type: SourceType;
  source: string;
  model: PublicModel;
  instruction?: string | undefined;
  /** The client's own labels: stored and returned, never shown to the model. */
  metadata: Record<string, string>;
  citations: boolean;
  /** An uploaded file; `source` is then its display name. Its bytes may be read once. */
  /** An uploaded file, its format recognised by content (docs/sources.md). */
  upload?:
    { file: UploadedFile; format?: FormatName; open(): AsyncIterable<Uint8Array> } | undefined;
  /**
   * Reuse of finished answers (docs/reuse.md): the key when the source is known now (typed
   * text, uploads; a URL's is known only once fetched), and how old an answer may be reused
   * (null: `cache: false`, nothing is reused for this request; its own answer still may be).
   */
  reuse: { key: Buffer | null; maxAgeSeconds: number | null };
  /** `batch`: the provider's batch interface, and a job below every standard one (docs/batch.md). */
  priority?: ExtractionPriority | undefined;
  /**
   * A structure no stored schema holds (a schema suggestion's calls, docs/api.md#suggest-a-schema):
   * the row's snapshot is this instead of the schema table's, and `schemaId` only groups rows.
   */
  unsavedSchema?: { name: string; structure: Structure } | undefined;
}

export type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What an Idempotency-Key claim found: a new key, or the resource an earlier request made. */
export type KeyClaim = { kind: 'new' } | { kind: 'replay'; resourceId: string };

export interface CreateDeps {
  db: Db;
  store: BlobStore;
  /**
   * Turns for copying an upload into the store. Without them, many large uploads at once hold
   * every pooled connection for seconds each, and requests waiting for one are refused.
   */
  storeSlots: LimitFunction;
  /**
   * The account's bound on extractions pending or processing (docs/security.md#fair-use): a
   * create past it is refused with TooManyActive. How many there are is also the new job's
   * fair-scheduling priority.
   */
  maxActive: number;
}

/** The bound as a statement of its own, for a create that would store bytes first. */
async function checkActive(db: DbExecutor, accountId: string, limit: number): Promise<void> {
  if ((await countUnfinished(db, accountId)) >= limit) throw new TooManyActive(limit);
}

export type Written =
  { created: true; row: ExtractionRow; priority: number } | { created: false; id: string };

/**
 * The columns every create writes, whatever it becomes: the request as made and snapshots of
 * the schema's name and structure, read by the insert itself (a missing schema leaves the name
 * null, which the column refuses: UnknownSchema).
 */
export function requestColumns(
  accountId: string,
  id: string,
  input: NewExtraction,
  requestId: string,
  /** A split parent's classes with their schemas' snapshots (`splitSnapshot`). */
  split?: StoredSplit,
) {
  const snapshot = (column: typeof schemas.name | typeof schemas.structure) =>
    sql`(select ${column} from ${schemas} where ${schemas.accountId} = ${accountId} and ${schemas.id} = ${input.schemaId})`;
  const unsaved = split
    ? // A split parent has no schema: it asks the model to classify pages (docs/split.md).
      { name: '', structure: splitRequestStructure(split.classes.map((c) => c.name)) }
    : input.unsavedSchema;
  return {
    id,
    accountId,
    schemaId: split ? null : input.schemaId,
    split: split ?? null,
    schemaName: unsaved ? unsaved.name : snapshot(schemas.name),
    schemaStructure: unsaved ? unsaved.structure : snapshot(schemas.structure),
    sourceType: input.type,
    source: input.source,
    instruction: input.instruction ?? null,
    metadata: input.metadata,
    file: input.upload?.file ?? null,
    format: input.upload?.format ?? null,
    model: input.model,
    citationsRequested: input.citations,
    requestId,
    reuseKey: input.reuse.key,
    cacheMaxAgeSeconds: input.reuse.maxAgeSeconds,
    priority: input.priority ?? 'standard',
  };
}

/**
 * A split's classes with a snapshot of each named schema, read in the create's own statement
 * order before anything is written: a class naming no schema of the account refuses the create
 * (UnknownSplitSchema, naming the class), so nothing is half-written.
 */
async function splitSnapshot(
  tx: DbExecutor,
  accountId: string,
  split: SplitRequest,
): Promise<StoredSplit> {
  const ids = [...new Set(split.classes.flatMap((c) => (c.schema_id ? [c.schema_id] : [])))];
  const found =
    ids.length === 0
      ? []
      : await tx
          .select({ id: schemas.id, name: schemas.name, structure: schemas.structure })
          .from(schemas)
          .where(and(eq(schemas.accountId, accountId), inArray(schemas.id, ids)));
  const byId = new Map(found.map((s) => [s.id, s]));
  const missing = split.classes.findIndex((c) => c.schema_id && !byId.has(c.schema_id));
  if (missing >= 0) throw new UnknownSplitSchema(missing);
  return {
    classes: split.classes.map((c) => {
      const schema = c.schema_id ? byId.get(c.schema_id) : undefined;
      return {
        name: c.name,
        ...(c.description !== undefined ? { description: c.description } : {}),
        ...(schema
          ? { schemaId: schema.id, schemaName: schema.name, schemaStructure: schema.structure }
          : {}),
      };
    }),
    other: split.other,
  };
}

/**
 * Writes the extraction as `pending`, with snapshots of the schema's name and structure so a
 * later change of the schema never changes what this extraction asked for.
 *
 * With an Idempotency-Key (`claimKey`) the key is claimed in the same transaction as the row:
 * a repeat of the request finds the id the key created instead (docs/idempotency.md). An
 * uploaded file is stored in the same transaction: the row never exists without its bytes, nor
 * the bytes without it.
 */
export async function writeExtraction(
  deps: CreateDeps,
  accountId: string,
  input: NewExtraction,
  opts: {
    requestId: string;
    claimKey?: ((tx: Transaction, id: string) => Promise<KeyClaim>) | undefined;
  },
): Promise<Written> {
  const id = randomUUID();
  const write = async (tx: DbExecutor, inTransaction: Transaction | null): Promise<Written> => {
    if (opts.claimKey) {
      if (!inTransaction) throw new Error('an Idempotency-Key is only claimed in a transaction');
      const claim = await opts.claimKey(inTransaction, id);
      if (claim.kind === 'replay') return { created: false, id: claim.resourceId };
    }
    const split = input.split ? await splitSnapshot(tx, accountId, input.split) : undefined;
    const limit = deps.maxActive;
    // No bytes are stored for a create the bound refuses (the insert checks again below).
    if (input.upload) await checkActive(tx, accountId, limit);
    const stored = input.upload ? await deps.store.put(tx, input.upload.open()) : undefined;
    if (stored && stored.size !== input.upload?.file.size)
      throw new Error('the stored upload differs in size from the one received');
    // One statement: the schema's snapshot and the account's slot are read by the insert itself,
    // saving a round trip each per create. A missing schema leaves the name null, an account at
    // its bound the status, and the columns refuse either (the name comes first, so a bad
    // schema_id is answered as such). take_extraction_slot (drizzle/0013) holds the bound
    // exactly under concurrent creates: a per-account advisory lock until commit, shared while
    // the account is far from its bound, exclusive near it.
    const [inserted] = await tx
      .insert(extractions)
      .values({
        ...requestColumns(accountId, id, input, opts.requestId, split),
        fileRef: stored?.ref ?? null,
        status: sql`case when take_extraction_slot(${accountId}, ${limit}) then 'pending' end`,
      })
      // RETURNING reads the counters as they were before this insert (its statement trigger
      // has not run yet), so `active` counts the others.
      .returning({ ...getTableColumns(extractions), active: unfinishedSql(accountId) })
      .catch((err: unknown) => {
        if (isNotNullViolation(err, 'schema_name')) throw new UnknownSchema();
        if (isNotNullViolation(err, 'status')) throw new TooManyActive(limit);
        throw err;
      });
    if (!inserted) throw new Error('insert returned no row');
    const { active, ...row } = inserted;
    return { created: true, row, priority: jobPriority(active + 1, row.priority) };
  };
  // Without a key to claim or bytes to store there is nothing to commit together: the insert
  // runs on its own, saving BEGIN and COMMIT round trips on the hottest path
  // (docs/performance.md). An upload's copy holds a connection for as long as it takes, so
  // uploads take turns (storeSlots) and the other requests keep their connections.
  const inTransaction = () => deps.db.transaction((tx) => write(tx, tx));
  if (input.upload) return deps.storeSlots(inTransaction);
  return opts.claimKey ? inTransaction() : write(deps.db, null);
}
