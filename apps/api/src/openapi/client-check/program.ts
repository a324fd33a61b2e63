/**
 * What a client developer writes against a client generated from the OpenAPI document with
 * openapi-typescript and openapi-fetch: every operation, through the generated types only.
 * `client.integration.test.ts` generates `./schema.gen.ts` from the served document, type-checks this file
 * against it with `tsc` (strict) and runs it against the real API; the workspace's own
 * typecheck skips this folder, where the generated file exists only during that test.
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema.gen.ts';

export interface Target {
  /** Where the API listens, without /v1. */
  baseUrl: string;
  apiKey: string;
  admin: { user: string; password: string };
  /** The webhook endpoint to register (it must pass the URL rules). */
  webhookUrl: string;
  fetch: typeof fetch;
}

function must<T>(what: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined)
    throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

/** Runs every operation once; returns what a client would read off the answers. */
export async function useEveryRoute(t: Target) {
  const api = createClient<paths>({
    baseUrl: `${t.baseUrl}/v1`,
    headers: { Authorization: `Bearer ${t.apiKey}` },
    fetch: t.fetch,
  });
  const ops = createClient<paths>({ baseUrl: t.baseUrl, fetch: t.fetch });

  const structure = {
    type: 'object' as const,
    properties: { total: { type: 'number' as const, required: true } },
  };
  // Every completed extraction of the schema is queued for review (sample 1).
  const review = { minConfidence: 0.5, sample: 1 };
  const created = must(
    'createSchema',
    await api.POST('/schemas', {
      params: { header: { 'Idempotency-Key': `client-check-${Date.now()}` } },
      body: { name: 'Invoice', structure, review },
    }),
  );
  const schemaId: string = created.data.id;
  const schemas = must(
    'listSchemas',
    await api.GET('/schemas', { params: { query: { page: 1, limit: 5, search: 'Invoice' } } }),
  );
  const schemaTotal: number = schemas.data.meta.total;
  must('getSchema', await api.GET('/schemas/{id}', { params: { path: { id: schemaId } } }));
  must(
    'replaceSchema',
    await api.PUT('/schemas/{id}', {
      params: { path: { id: schemaId } },
      body: { name: 'Invoice', description: 'the grand total', structure, review },
    }),
  );
  const renamed = must(
    'updateSchema',
    await api.PATCH('/schemas/{id}', {
      params: { path: { id: schemaId } },
      body: { name: 'Invoice v2' },
    }),
  );

  const extracted = must(
    'createExtraction',
    await api.POST('/extractions', {
      params: { header: { Prefer: 'wait=20' } },
      body: { schema_id: schemaId, type: 'text', source: 'Total due: 12.50 EUR' },
    }),
  );
  if (extracted.data.status !== 'completed') throw new Error('the extraction did not complete');
  const output = extracted.data.output;
  const total: unknown = Array.isArray(output) ? undefined : output.total;

  const uploaded = must(
    'createExtraction (multipart)',
    await api.POST('/extractions', {
      params: { header: { Prefer: 'respond-async' } },
      body: {
        schema_id: schemaId,
        type: 'text',
        source: new Blob(['Total due: 7.25 EUR'], { type: 'text/plain' }),
      },
      bodySerializer(body) {
        const form = new FormData();
        // Optional in the document: a split names its schemas per class (docs/split.md).
        if (body.schema_id) form.append('schema_id', body.schema_id);
        form.append('type', body.type);
        if (body.source instanceof Blob) form.append('source', body.source, 'invoice.txt');
        return form;
      },
    }),
  );
  const suggested = must(
    'suggestSchema',
    await api.POST('/schemas/suggest', {
      body: {
        files: [new Blob(['Invoice number: INV-7\nTotal due: 7.25'], { type: 'text/plain' })],
      },
      bodySerializer(body) {
        const form = new FormData();
        for (const file of body.files) form.append('files', file, 'sample.txt');
        return form;
      },
    }),
  );
  const converted = must(
    'convertJsonSchema',
    await api.POST('/schemas/convert', {
      body: { jsonSchema: { type: 'object', properties: { total: { type: 'number' } } } },
    }),
  );
  const listed = must(
    'listExtractions',
    await api.GET('/extractions', {
      params: { query: { schema_id: schemaId, status: 'completed', limit: 1 } },
    }),
  );
  const first = listed.data.data[0];
  const listedTotal: unknown =
    first?.output && !Array.isArray(first.output) ? first.output.total : undefined;
  const single = must(
    'getExtraction',
    await api.GET('/extractions/{id}', { params: { path: { id: extracted.data.id } } }),
  );
  const result = single.data.result;
  const resultTotal: unknown = result && !Array.isArray(result) ? result.total : undefined;
  const queue = must(
    'listReviews',
    await api.GET('/reviews', {
      params: { query: { schema_id: schemaId, status: 'needs_review' } },
    }),
  );
  const queued: number = queue.data.meta.total;
  const reviewed = must(
    'reviewExtraction',
    await api.POST('/extractions/{id}/review', {
      params: { path: { id: extracted.data.id } },
      body: { decision: 'approve', corrections: { '/total': 12.5 }, note: 'checked' },
    }),
  );
  const reviewStatus = reviewed.data.review?.status;
  const dataset = must(
    'exportDataset',
    await api.GET('/schemas/{id}/dataset', { params: { path: { id: schemaId } } }),
  );
  const expected: unknown = dataset.data.data[0]?.expected;
  const file = must(
    'getExtractionFile',
    await api.GET('/extractions/{id}/file', {
      params: { path: { id: uploaded.data.id } },
      parseAs: 'text',
    }),
  );
  must(
    'deleteExtraction',
    await api.DELETE('/extractions/{id}', { params: { path: { id: uploaded.data.id } } }),
  );

  const endpoint = must(
    'createWebhook',
    await api.POST('/webhooks', {
      body: { url: t.webhookUrl, events: ['extraction.completed'] },
    }),
  );
  const endpointId: string = endpoint.data.id;
  const secret: string = endpoint.data.secret;
  must('listWebhooks', await api.GET('/webhooks', { params: { query: { limit: 100 } } }));
  must('getWebhook', await api.GET('/webhooks/{id}', { params: { path: { id: endpointId } } }));
  must(
    'updateWebhook',
    await api.PATCH('/webhooks/{id}', {
      params: { path: { id: endpointId } },
      body: { enabled: false, description: 'paused' },
    }),
  );
  const rotated = must(
    'rotateWebhookSecret',
    await api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id: endpointId } } }),
  );
  const deliveries = must(
    'listWebhookDeliveries',
    await api.GET('/webhooks/{id}/deliveries', { params: { path: { id: endpointId } } }),
  );
  must(
    'deleteWebhook',
    await api.DELETE('/webhooks/{id}', { params: { path: { id: endpointId } } }),
  );
  must('deleteSchema', await api.DELETE('/schemas/{id}', { params: { path: { id: schemaId } } }));
  const models = must('listModels', await api.GET('/models'));
  const defaultModel: string | undefined = models.data.find((m) => m.default)?.id;

  const health = must('getHealth', await ops.GET('/healthz'));
  const ready = must('getReadiness', await ops.GET('/readyz'));
  const document = must('getOpenApiDocument', await ops.GET('/openapi.json'));
  const page = must('getDocs', await ops.GET('/docs', { parseAs: 'text' }));
  const metrics = must('getMetrics', await ops.GET('/metrics', { parseAs: 'text' }));
  const queues = must(
    'getQueueDashboard',
    await ops.GET('/admin/queues', {
      headers: { Authorization: `Basic ${btoa(`${t.admin.user}:${t.admin.password}`)}` },
      parseAs: 'text',
    }),
  );

  return {
    schemaTotal,
    renamed: renamed.data.name,
    total,
    listedTotal,
    resultTotal,
    uploadedStatus: uploaded.data.status,
    suggestedFields: Object.keys(suggested.data.structure.properties ?? {}),
    convertedFields: Object.keys(converted.data.structure.properties ?? {}),
    queued,
    reviewStatus,
    expected,
    file,
    secretChanged: rotated.data.secret !== secret,
    deliveries: deliveries.data.meta.total,
    defaultModel,
    health: health.status,
    ready: ready.status,
    documentHasPaths: 'paths' in document,
    pages: [page, metrics, queues].map((text) => text.length > 0),
  };
}
