import { randomUUID } from 'node:crypto';
import { ExtractionFailedError } from './errors.ts';
import { paginate } from './paginate.ts';
import { pollUntilFinal } from './poll.ts';
import { Transport, type CallOptions } from './transport.ts';
import type {
  Extraction,
  ExtractionListItem,
  ExtractionListQuery,
  ListQuery,
  Model,
  Page,
  Schema,
  SchemaInput,
} from './types.ts';
import type { DatasetCase, ReviewInput, ReviewListQuery } from './review-types.ts';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointInput,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from './webhook-types.ts';
import type { SchemaConversion, SchemaSuggestion } from './suggest-types.ts';
import { uploadBlob, type Upload } from './uploads.ts';
import type { CreateExtractionParams } from './create-params.ts';
import { createExtraction } from './create-request.ts';
import { splitCreate, splitOutcome, type SplitOutcome, type SplitParams } from './split.ts';

import type {
  CompletedExtraction,
  CreatedExtraction,
  CreateOptions,
  CreateExtractionOptions,
  ClientOptions,
  ExtractOptions,
  SuggestSchemaParams,
} from './client-options.ts';

/**
 * The client of the extraction service for API keys. Every method takes `signal` (through
 * retries and polling) and retries network errors, 429 and 503 as `TransportOptions` says.
 */
export class XtClient {
  private readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
  }

  readonly schemas = {
    create: async (input: SchemaInput, options: CreateOptions = {}): Promise<Schema> => {
      const key = options.idempotencyKey ?? randomUUID();
      const res = await this.http.request<Schema>({
        ...options,
        method: 'POST',
        path: '/schemas',
        json: input,
        headers: { ...options.headers, 'idempotency-key': key },
        resendable: true,
      });
      return res.data;
    },
    list: (query: ListQuery = {}, options: CallOptions = {}): Promise<Page<Schema>> =>
      this.get('/schemas', query, options),
    /** Every schema matching `query`, fetched page by page as the loop asks. */
    all: (query: ListQuery = {}, options: CallOptions = {}): AsyncGenerator<Schema> =>
      paginate((q) => this.schemas.list(q, options), query),
    get: (id: string, options: CallOptions = {}): Promise<Schema> =>
      this.get(`/schemas/${enc(id)}`, undefined, options),
    /** PUT: replaces name, description and structure. */
    replace: (id: string, input: SchemaInput, options: CallOptions = {}): Promise<Schema> =>
      this.send('PUT', `/schemas/${enc(id)}`, input, options),
    /** PATCH: changes only the fields given. */
    update: (id: string, patch: Partial<SchemaInput>, options: CallOptions = {}): Promise<Schema> =>
      this.send('PATCH', `/schemas/${enc(id)}`, patch, options),
    delete: async (id: string, options: CallOptions = {}): Promise<void> => {
      await this.send('DELETE', `/schemas/${enc(id)}`, undefined, options);
    },
    /**
     * Drafts a structure from sample files and runs it on each (docs/api.md#suggest-a-schema).
     * Nothing is stored as a schema; the model calls are charged as extractions. A 503 (the
     * workers did not finish in time, or the provider is down) is retried: a repeat reuses
     * the calls that finished.
     */
    suggest: async (
      params: SuggestSchemaParams,
      options: CallOptions = {},
    ): Promise<SchemaSuggestion> => {
      const form = new FormData();
      for (const file of params.files) {
        const { blob, filename } = await uploadBlob(file);
        form.append('files', blob, filename);
      }
      if (params.prompt !== undefined) form.append('prompt', params.prompt);
      if (params.model !== undefined) form.append('model', params.model);
      const res = await this.http.request<SchemaSuggestion>({
        ...options,
        method: 'POST',
        path: '/schemas/suggest',
        form,
        resendable: true,
      });
      return res.data;
    },
    /**
     * A JSON Schema (Pydantic's model_json_schema(), zod-to-json-schema's output, …) as a
     * structure, with what could not be kept (docs/api.md#import-a-json-schema). No charge.
     */
    convert: (jsonSchema: object, options: CallOptions = {}): Promise<SchemaConversion> =>
      this.send('POST', '/schemas/convert', { jsonSchema }, options),
    /** The schema's approved extractions as evaluation cases (docs/review.md#export). */
    dataset: (id: string, query: ListQuery = {}, options: CallOptions = {}) =>
      this.get<Page<DatasetCase>>(`/schemas/${enc(id)}/dataset`, query, options),
    /** Every case of `dataset`, fetched page by page as the loop asks. */
    allDataset: (id: string, options: CallOptions = {}): AsyncGenerator<DatasetCase> =>
      paginate((q) => this.schemas.dataset(id, q, options), { limit: 100 }),
  };

  readonly extractions = {
    create: (
      params: CreateExtractionParams,
      options: CreateExtractionOptions = {},
    ): Promise<CreatedExtraction> => this.createExtraction(params, options),
    get: (id: string, options: CallOptions = {}): Promise<Extraction> =>
      this.get(`/extractions/${enc(id)}`, undefined, options),
    list: (
      query: ExtractionListQuery = {},
      options: CallOptions = {},
    ): Promise<Page<ExtractionListItem>> => this.get('/extractions', query, options),
    /** Every extraction matching `query`, fetched page by page as the loop asks. */
    all: (
      query: ExtractionListQuery = {},
      options: CallOptions = {},
    ): AsyncGenerator<ExtractionListItem> =>
      paginate((q) => this.extractions.list(q, options), query),
    delete: async (id: string, options: CallOptions = {}): Promise<void> => {
      await this.send('DELETE', `/extractions/${enc(id)}`, undefined, options);
    },
    /**
     * Approves (with corrections) or rejects an extraction queued for review. Sent once: a
     * repeat of a review that went through answers 409.
     */
    review: (id: string, input: ReviewInput, options: CallOptions = {}): Promise<Extraction> =>
      this.send('POST', `/extractions/${enc(id)}/review`, input, options, false),
    /**
     * A bundle's record (docs/split.md) and its documents, each with its extraction's record:
     * what `split()` returns, for a bundle created otherwise or told of by a webhook. Read once
     * it is completed; before that it has no documents.
     */
    documents: async (
      bundle: string | Extraction,
      options: CallOptions = {},
    ): Promise<SplitOutcome> => {
      const parent =
        typeof bundle === 'string' ? await this.extractions.get(bundle, options) : bundle;
      return splitOutcome(parent, (id) => this.extractions.get(id, options));
    },
    /** An uploaded source's bytes, while the service keeps them. */
    file: async (id: string, options: CallOptions = {}): Promise<Uint8Array> => {
      const res = await this.http.request<Uint8Array>({
        ...options,
        method: 'GET',
        path: `/extractions/${enc(id)}/file`,
        resendable: true,
        bytes: true,
      });
      return res.data;
    },
  };

  readonly reviews = {
    /** Extractions queued for review (docs/review.md), newest first. */
    list: (query: ReviewListQuery = {}, options: CallOptions = {}): Promise<Page<Extraction>> =>
      this.get('/reviews', query, options),
    /** Every queued extraction matching `query`, fetched page by page as the loop asks. */
    all: (query: ReviewListQuery = {}, options: CallOptions = {}): AsyncGenerator<Extraction> =>
      paginate((q) => this.reviews.list(q, options), query),
  };

  readonly webhooks = {
    create: (
      input: WebhookEndpointInput,
      options: CallOptions = {},
    ): Promise<WebhookEndpointWithSecret> =>
      // No Idempotency-Key on this route: a lost answer is not re-sent, or it could make two.
      this.send('POST', '/webhooks', input, options, false),
    list: (query: ListQuery = {}, options: CallOptions = {}): Promise<Page<WebhookEndpoint>> =>
      this.get('/webhooks', query, options),
    /** Every endpoint matching `query`, fetched page by page as the loop asks. */
    all: (query: ListQuery = {}, options: CallOptions = {}): AsyncGenerator<WebhookEndpoint> =>
      paginate((q) => this.webhooks.list(q, options), query),
    get: (id: string, options: CallOptions = {}): Promise<WebhookEndpoint> =>
      this.get(`/webhooks/${enc(id)}`, undefined, options),
    update: (
      id: string,
      patch: WebhookEndpointPatch,
      options: CallOptions = {},
    ): Promise<WebhookEndpoint> => this.send('PATCH', `/webhooks/${enc(id)}`, patch, options),
    delete: async (id: string, options: CallOptions = {}): Promise<void> => {
      await this.send('DELETE', `/webhooks/${enc(id)}`, undefined, options);
    },
    /** A new secret; the old one stops verifying at once. */
    rotateSecret: (id: string, options: CallOptions = {}): Promise<WebhookEndpointWithSecret> =>
      this.send('POST', `/webhooks/${enc(id)}/rotate-secret`, undefined, options, false),
    deliveries: (
      id: string,
      query: ListQuery = {},
      options: CallOptions = {},
    ): Promise<Page<WebhookDelivery>> =>
      this.get(`/webhooks/${enc(id)}/deliveries`, query, options),
  };

  readonly models = {
    /** The models `model` on create takes, the default among them, and what each can do. */
    list: (options: CallOptions = {}): Promise<Model[]> => this.get('/models', undefined, options),
  };

  /**
   * Submits an extraction and returns it once completed: at once when the service answered
   * 200, otherwise by polling `GET /extractions/{id}` (honouring `Retry-After`). With
   * `onProgress` (and no `waitSeconds`) the create answers at once and polling starts at the
   * first page, so progress shows from the start. Throws
   * ExtractionFailedError when it fails, ApiError for a refused request.
   */
  async extract(
    params: CreateExtractionParams,
    options: ExtractOptions = {},
  ): Promise<CompletedExtraction> {
    const signal = withTimeout(options.signal, options.timeoutMs);
    const bounded = signal ? { ...options, signal } : options;
    // Someone watching progress must see it from the first page: a held create (up to the
    // service's wait, 55 s by default) would show nothing until it answered.
    const watched =
      options.onProgress && options.waitSeconds === undefined
        ? { ...bounded, waitSeconds: 0 }
        : bounded;
    const created = await this.createExtraction(params, watched);
    if (created.extraction.status === 'completed') return created.extraction as CompletedExtraction;
    const record = await pollUntilFinal(
      (s) => this.extractions.get(created.extraction.id, s ? { signal: s } : {}),
      { ...bounded, initialDelayMs: options.initialDelayMs ?? secondsToMs(created.retryAfter) },
    );
    if (record.status === 'failed') {
      throw new ExtractionFailedError(
        record.id,
        record.error?.code ?? 'INTERNAL',
        record.error?.message ?? 'The extraction failed.',
      );
    }
    return {
      id: record.id,
      status: 'completed',
      output: record.result,
      totalTokens: record.totalTokens,
      ...(record.citations ? { citations: record.citations } : {}),
      ...(record.warnings ? { warnings: record.warnings } : {}),
      ...(record.reused ? { reused: record.reused } : {}),
    };
  }

  /**
   * Submits a bundle with `split` (docs/split.md) and waits for it as `extract()` does: the
   * bundle completes once every document's extraction is final. Returns the bundle's record and
   * its documents in page order, each with its extraction's record (null for a class without a
   * schema and for `other`). Throws ExtractionFailedError when the split itself failed (then no
   * document was extracted); a document's failed extraction is in its record, not thrown.
   */
  async split(
    source: string | Upload,
    params: SplitParams,
    options: ExtractOptions = {},
  ): Promise<SplitOutcome> {
    const done = await this.extract(splitCreate(source, params), options);
    return this.extractions.documents(done.id, options.signal ? { signal: options.signal } : {});
  }

  private createExtraction(
    params: CreateExtractionParams,
    options: CreateExtractionOptions,
  ): Promise<CreatedExtraction> {
    return createExtraction(this.http, params, options);
  }

  private async get<T>(path: string, query: object | undefined, options: CallOptions): Promise<T> {
    const res = await this.http.request<T>({
      ...options,
      method: 'GET',
      path,
      ...(query ? { query } : {}),
      resendable: true,
    });
    return res.data;
  }

  private async send<T>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    json: unknown,
    options: CallOptions,
    resendable = true,
  ): Promise<T> {
    const res = await this.http.request<T>({
      ...options,
      method,
      path,
      ...(json !== undefined ? { json } : {}),
      resendable,
    });
    return res.data;
  }
}

const enc = encodeURIComponent;

function secondsToMs(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : seconds * 1000;
}

function withTimeout(signal: AbortSignal | undefined, timeoutMs: number | undefined) {
  if (timeoutMs === undefined) return signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}
