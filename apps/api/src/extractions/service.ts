import type { Queue } from 'bullmq';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { isFailureCode, SOURCE_KINDS } from '@xt/contract';
import { pipelineVersion } from '@xt/model/pipeline-version';
import type { BlobStore } from '@xt/blob-store';
import { and, eq } from 'drizzle-orm';
import { schemas, type Db, type ExtractionRow } from '@xt/db';
import {
  createSubmitExtraction,
  deleteExtraction,
  getExtraction,
  reuseKey,
  textSha256,
  type NewExtraction,
  type ReuseSource,
  type SubmitContext,
  type SubmitOutcome,
} from '@xt/extractions';
import type { CompletionWaiter } from '@xt/queue';
import type { ApiConfig } from '../config.ts';
import { failureHttpStatus } from '../http/errors/failure-status.ts';
import { HttpError } from '../http/errors/errors.ts';
import type { ListQuery } from '../http/listing/list-query.ts';
import type { IdempotencyKeys, IdempotencyRequest } from '../idempotency/store.ts';
import { listExtractions } from './list.ts';
import type { ExtractionInput } from './body.ts';

export type CreateOutcome = SubmitOutcome;

/**
 * The API's side of the lifecycle: the use cases of packages/extractions wired to this process's
 * connections and settings, plus the list (a read model of the API's own). What they refuse is
 * mapped to HTTP by the error middleware.
 */
export class ExtractionService {
  readonly #db: Db;
  readonly #queue: Queue;
  readonly #store: BlobStore;
  readonly #keys: IdempotencyKeys;
  readonly #submit: ReturnType<typeof createSubmitExtraction>;
  readonly #reuse: { maxAgeSeconds: number; namespace: string; pipelineVersion: string };

  constructor(deps: {
    db: Db;
    queue: Queue;
    waiter: CompletionWaiter;
    config: ApiConfig;
    keys: IdempotencyKeys;
    logger: Logger;
    store: BlobStore;
  }) {
    const { config } = deps;
    this.#db = deps.db;
    this.#queue = deps.queue;
    this.#store = deps.store;
    this.#keys = deps.keys;
    this.#reuse = {
      maxAgeSeconds: config.CACHE_MAX_AGE_SECONDS,
      namespace: config.CACHE_NAMESPACE,
      pipelineVersion: pipelineVersion(),
    };
    this.#submit = createSubmitExtraction({
      ...deps,
      jobs: { attempts: config.JOB_ATTEMPTS, backoffMs: config.JOB_BACKOFF_MS },
      storeSlots: pLimit(
        config.UPLOAD_STORE_CONCURRENCY ?? Math.max(1, Math.floor(config.DB_POOL_MAX / 2)),
      ),
      maxActive: config.MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT,
    });
  }

  /** See packages/extractions/src/submit.ts; the Idempotency-Key is claimed with the row. */
  create(
    accountId: string,
    input: ExtractionInput & Pick<NewExtraction, 'unsavedSchema'>,
    ctx: Omit<SubmitContext, 'claimKey'> & { idempotency?: IdempotencyRequest | undefined },
  ): Promise<CreateOutcome> {
    const { idempotency } = ctx;
    return this.#submit(
      accountId,
      { ...input, reuse: this.#reuseOf(accountId, input) },
      {
        ...ctx,
        claimKey: idempotency
          ? (tx, id) => this.#keys.claim(tx, accountId, idempotency, 'extraction', id)
          : undefined,
      },
    );
  }

  /**
   * The request's reuse (docs/reuse.md): its key when the source's bytes are here (typed text,
   * an upload; a URL's content is only known once the worker fetched it), and the age asked.
   */
  #reuseOf(accountId: string, input: ExtractionInput): NewExtraction['reuse'] {
    // A split bundle's answer is made by its children: neither reused nor kept for reuse.
    if (input.split) return { key: null, maxAgeSeconds: null };
    const maxAgeSeconds =
      input.cache === false ? null : (input.cache?.maxAge ?? this.#reuse.maxAgeSeconds);
    const source: ReuseSource | null = input.upload
      ? {
          kind: 'bytes',
          sha256: input.upload.file.sha256,
          contentType: input.upload.file.contentType,
        }
      : SOURCE_KINDS[input.type].inputs.inline
        ? { kind: 'bytes', sha256: textSha256(input.source), contentType: null }
        : null;
    const key = source
      ? reuseKey({
          accountId,
          type: input.type,
          source,
          instruction: input.instruction,
          model: input.model,
          citations: input.citations,
          pipelineVersion: this.#reuse.pipelineVersion,
          namespace: this.#reuse.namespace,
        })
      : null;
    return { key, maxAgeSeconds };
  }

  get(accountId: string, id: string): Promise<ExtractionRow> {
    return getExtraction(this.#db, accountId, id);
  }

  /** Asked only for a create refused on other grounds: a create's insert checks it itself. */
  async schemaExists(accountId: string, schemaId: string): Promise<boolean> {
    const [row] = await this.#db
      .select({ id: schemas.id })
      .from(schemas)
      .where(and(eq(schemas.accountId, accountId), eq(schemas.id, schemaId)));
    return row !== undefined;
  }

  list(accountId: string, q: ListQuery) {
    return listExtractions(this.#db, accountId, q);
  }

  delete(accountId: string, id: string, log: Logger): Promise<void> {
    return deleteExtraction(
      { db: this.#db, store: this.#store, queue: this.#queue },
      accountId,
      id,
      log,
    );
  }
}

/** A failed extraction as the error a synchronous create answers with (docs/api.md#waiting-and-prefer). */
export function failureAsHttpError(row: ExtractionRow): HttpError {
  const code = isFailureCode(row.errorCode) ? row.errorCode : 'INTERNAL';
  const status = failureHttpStatus(code);
  const message = row.errorMessage ?? 'The extraction failed.';
  const extra = { extractionId: row.id };
  if (status === 422)
    return new HttpError(422, code, message, { fields: [{ field: 'source', message }], extra });
  return new HttpError(status, code, message, { extra });
}
