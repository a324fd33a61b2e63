/**
 * The published SDK (packages/sdk) against the real service: the API in-process, a real worker
 * process, PostgreSQL and Redis, and the model stand-in. A proxy between the SDK and the API
 * plays the flaky network and load balancer, so retries, Retry-After and idempotency are seen
 * from both sides. The test lives here because the harness is the API's; the SDK does not
 * depend on the API.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  ExtractionFailedError,
  NetworkError,
  verifyWebhook,
  WebhookVerificationError,
  XtClient,
  type Structure,
} from '@xt/sdk';
import { startModelStandIn, waitFor, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';
import { startTestProxy, type TestProxy } from '@xt/testkit';
import { BUNDLE_DOCUMENTS, bundlePdf } from '../support/bundle.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const invoice: Structure = { type: 'object', properties: { total: { type: 'number' } } };

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let proxy: TestProxy;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let tmpDir: string;
let client: XtClient;
let schemaId: string;

beforeAll(async () => {
  tmpDir = await mkdtemp(path.join(os.tmpdir(), 'xt-sdk-test-'));
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  receiverUrl = `http://127.0.0.1:${port}/hook`;
  const allow = { WEBHOOK_ALLOWLIST: `127.0.0.1:${port}` };
  model = await startModelStandIn();
  api = await startTestApi(allow);
  worker = await startTestWorker(api, model.url, {
    ...allow,
    WEBHOOK_RELAY_INTERVAL_MS: '100',
  });
  proxy = await startTestProxy(api.url);
  // Short backoff so retries do not slow the file down; Retry-After still sets the floor.
  client = new XtClient({
    baseUrl: proxy.url,
    apiKey: api.keys.write,
    backoff: { baseMs: 20, maxMs: 3000 },
  });
  schemaId = (await client.schemas.create({ name: 'Invoice', structure: invoice })).id;
  // Two processes start here on a busy machine.
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await proxy?.close();
  await api?.close();
  await model?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  if (tmpDir) await rm(tmpDir, { recursive: true, force: true });
});

beforeEach(() => {
  model.reset();
  proxy.reset();
});

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

async function extractionCount(): Promise<number> {
  return (await client.extractions.list({ limit: 1 })).meta.total;
}

describe('schemas', () => {
  it('creates, reads, lists, changes and deletes a schema', async () => {
    const created = await client.schemas.create({
      name: 'Receipt',
      description: 'till slips',
      structure: invoice,
    });
    expect(created).toMatchObject({ name: 'Receipt', description: 'till slips' });
    expect(proxy.requests[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);

    expect(await client.schemas.get(created.id)).toEqual(created);
    const listed = await client.schemas.list({ search: 'recei' });
    expect(listed.data.map((s) => s.id)).toEqual([created.id]);
    expect(listed.meta).toMatchObject({ total: 1, currentPage: 1 });

    const patched = await client.schemas.update(created.id, { description: null });
    expect(patched.description).toBeNull();
    const replaced = await client.schemas.replace(created.id, {
      name: 'Receipt v2',
      structure: { type: 'object', properties: { vat: { type: 'number' } } },
    });
    expect(replaced.structure).toEqual({
      type: 'object',
      properties: { vat: { type: 'number' } },
    });

    await client.schemas.delete(created.id);
    const gone = await client.schemas.get(created.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('throws a typed 422 naming every field', async () => {
    const error = await client.schemas
      .create({
        name: ' ',
        structure: { type: 'object', properties: { total: { type: 'money' } } } as never,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(422);
    expect(apiError.code).toBe('VALIDATION_FAILED');
    expect(apiError.fields).toEqual(
      expect.arrayContaining(['name', 'structure.properties.total.type']),
    );
    expect(apiError.requestId).toBeTruthy();

    const reader = new XtClient({ baseUrl: api.url, apiKey: api.keys.read });
    await expect(reader.schemas.delete(schemaId)).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    const stranger = new XtClient({ baseUrl: api.url, apiKey: 'sk_live_unknown' });
    await expect(stranger.schemas.list()).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
    });

    const noSchema = await client
      .extract({ schemaId: '00000000-0000-4000-8000-000000000000', type: 'text', source: 'x' })
      .catch((e: unknown) => e);
    expect(noSchema).toBeInstanceOf(ApiError);
    expect((noSchema as ApiError).fields).toEqual(['schema_id']);
  });
});

describe('schema suggestion and import', () => {
  it('suggests a structure from files given as a path and as bytes, which creates a schema', async () => {
    const file = path.join(tmpDir, 'invoice.txt');
    await writeFile(file, 'Invoice number: INV-7\nTotal due: 12.50 EUR');
    // Values only where the samples write them, so a sample's missing fields show.
    model.setDefaultBehaviour({ oracle: true });
    const suggestion = await client.schemas
      .suggest({
        files: [
          { path: file },
          { data: Buffer.from('Invoice number: INV-8\nIssue date: 2026-11-21'), filename: 'b.txt' },
        ],
        prompt: 'supplier invoices',
      })
      .finally(() => model.setDefaultBehaviour({}));
    expect(Object.keys(suggestion.structure.properties ?? {})).toEqual([
      'invoice_number',
      'total_due',
      'issue_date',
    ]);
    expect(suggestion.samples.map((s) => s.file.name)).toEqual(['invoice.txt', 'b.txt']);
    expect(suggestion.samples[0]!.fields.missing).toEqual(['issue_date']);
    const schema = await client.schemas.create({
      name: 'Suggested',
      structure: suggestion.structure,
    });
    expect(schema.structure).toEqual(suggestion.structure);
    await client.schemas.delete(schema.id);
  });

  it('converts a JSON Schema and types what was left out', async () => {
    const conversion = await client.schemas.convert({
      type: 'object',
      properties: { total: { type: 'number', exclusiveMinimum: 0 } },
    });
    expect(conversion).toEqual({
      structure: { type: 'object', properties: { total: { type: 'number' } } },
      dropped: [
        {
          path: '/properties/total/exclusiveMinimum',
          reason: 'exclusiveMinimum has no equivalent in a structure',
        },
      ],
    });
    const refused = await client.schemas.convert({ type: 'text' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422 });
  });
});

describe('extract()', () => {
  it('returns the record of a synchronous 200 without polling', async () => {
    model.behave({ output: { total: 12.5 } });
    const done = await client.extract({
      schemaId,
      type: 'text',
      source: 'Invoice total 12.50',
      metadata: { order: 'A-1' },
    });
    expect(done).toMatchObject({ status: 'completed', output: { total: 12.5 } });
    expect(done.totalTokens).toBeGreaterThan(0);
    expect(proxy.requests.map((r) => r.method)).toEqual(['POST']);
    const record = await client.extractions.get(done.id);
    expect(record.metadata).toEqual({ order: 'A-1' });
  });

  it('polls GET /extractions/{id} after a 202 until the record is final', async () => {
    model.behave({ delayMs: 500, output: { total: 7 } });
    const done = await client.extract(
      { schemaId, type: 'text', source: 'Invoice total 7' },
      { waitSeconds: 0, initialDelayMs: 100, maxPollIntervalMs: 200 },
    );
    expect(done).toMatchObject({ status: 'completed', output: { total: 7 } });
    const [create, ...polls] = proxy.requests;
    expect(create!.headers.prefer).toBe('wait=0');
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((p) => p.method === 'GET' && p.path === `/v1/extractions/${done.id}`)).toBe(
      true,
    );
  });

  it('with a progress callback asks not to be held, so progress shows from the start', async () => {
    model.behave({ delayMs: 300, output: { total: 8 } });
    const done = await client.extract(
      { schemaId, type: 'text', source: 'Invoice total 8' },
      { onProgress: () => undefined, initialDelayMs: 100, maxPollIntervalMs: 200 },
    );
    expect(done).toMatchObject({ status: 'completed', output: { total: 8 } });
    expect(proxy.requests[0]!.headers.prefer).toBe('wait=0');
    proxy.reset();
    // A wait the caller chose is kept.
    await client.extract(
      { schemaId, type: 'text', source: 'Invoice total 9' },
      { onProgress: () => undefined, waitSeconds: 20 },
    );
    expect(proxy.requests[0]!.headers.prefer).toBe('wait=20');
  });

  it('throws ExtractionFailedError for a failure, answered at once or found by polling', async () => {
    model.behave({ refuse: 'I will not' });
    const sync = await client
      .extract({ schemaId, type: 'text', source: 'Invoice total 1' })
      .catch((e: unknown) => e);
    expect(sync).toBeInstanceOf(ExtractionFailedError);
    expect(sync).toMatchObject({ failureCode: 'MODEL_REFUSED', apiError: { status: 502 } });

    model.behave({ delayMs: 300, refuse: 'I will not' });
    const polled = await client
      .extract(
        { schemaId, type: 'text', source: 'Invoice total 2' },
        { waitSeconds: 0, initialDelayMs: 100, maxPollIntervalMs: 200 },
      )
      .catch((e: unknown) => e);
    expect(polled).toBeInstanceOf(ExtractionFailedError);
    const failed = polled as ExtractionFailedError;
    expect(failed.failureCode).toBe('MODEL_REFUSED');
    expect((await client.extractions.get(failed.extractionId)).status).toBe('failed');
  });
});

describe('citations', () => {
  it('asks for them in JSON and multipart creates, and types them on the outcome', async () => {
    model.behave({ output: { total: 12.5 } });
    const plain = await client.extract({ schemaId, type: 'text', source: 'Invoice total 12.50' });
    expect(plain).not.toHaveProperty('citations');
    expect(await client.extractions.get(plain.id)).not.toHaveProperty('citations');

    const sync = await client.extract({
      schemaId,
      type: 'text',
      source: 'Invoice total 12.50',
      citations: true,
    });
    expect(sync.citations).toEqual(expect.any(Object));
    const record = await client.extractions.get(sync.id);
    expect(record.citations).toEqual(sync.citations);

    model.behave({ delayMs: 300, output: { total: 12.5 } });
    const polled = await client.extract(
      {
        schemaId,
        type: 'text',
        source: { data: Buffer.from('Invoice total 12.50'), filename: 'invoice.txt' },
        citations: true,
      },
      { waitSeconds: 0, initialDelayMs: 100, maxPollIntervalMs: 200 },
    );
    expect(polled.citations).toEqual((await client.extractions.get(polled.id)).citations);
    expect(polled.citations).toEqual(expect.any(Object));
  });
});

describe('reuse', () => {
  it('sends cache in JSON and multipart creates and types reused on the outcome', async () => {
    const text = `Invoice ${Date.now()}, total 31.00`;
    const before = model.requests.length;
    const first = await client.extract({ schemaId, type: 'text', source: text });
    expect(first).not.toHaveProperty('reused');
    // The test service reuses nothing by default (CACHE_MAX_AGE_SECONDS=0): ask for it.
    const again = await client.extract({
      schemaId,
      type: 'text',
      source: text,
      cache: { maxAge: 600 },
    });
    expect(again).toMatchObject({ totalTokens: 0, reused: { extractionId: first.id } });
    expect((await client.extractions.get(again.id)).reused).toEqual({ extractionId: first.id });
    const fresh = await client.extract({ schemaId, type: 'text', source: text, cache: false });
    expect(fresh).not.toHaveProperty('reused');

    const upload = { data: Buffer.from(text), filename: 'reuse.txt' };
    const uploaded = await client.extract({ schemaId, type: 'text', source: upload });
    const reupload = await client.extract(
      { schemaId, type: 'text', source: upload, cache: { maxAge: 600 } },
      { waitSeconds: 0, initialDelayMs: 100 },
    );
    expect(reupload.reused).toEqual({ extractionId: uploaded.id });
    const forced = await client.extract({ schemaId, type: 'text', source: upload, cache: false });
    expect(forced).not.toHaveProperty('reused');
    expect(model.requests.length - before).toBe(4);
  });
});

describe('uploads', () => {
  it('uploads from a path, a Buffer, a Node Readable and a web ReadableStream', async () => {
    const text = 'Invoice 2026-117, total due 4321.50 EUR';
    const file = path.join(tmpDir, 'invoice.txt');
    await writeFile(file, text);
    const pdf = await textPdf(['Invoice 2026-118', 'Total due 99.00 EUR']);

    const fromPath = await client.extract({ schemaId, type: 'text', source: { path: file } });
    const fromBuffer = await client.extract({
      schemaId,
      type: 'pdf',
      source: { data: pdf, filename: 'invoice.pdf', contentType: 'application/pdf' },
    });
    const fromReadable = await client.extract({
      schemaId,
      type: 'text',
      source: { data: createReadStream(file), filename: 'readable.txt' },
    });
    const fromWebStream = await client.extract({
      schemaId,
      type: 'text',
      source: { data: Readable.toWeb(Readable.from([Buffer.from(text)])), filename: 'web.txt' },
    });

    const texts = model.requests.map((r) => r.text);
    expect(texts[0]).toContain('4321.50');
    expect(texts[1]).toContain('Total due 99.00 EUR');
    const files = await Promise.all(
      [fromPath, fromBuffer, fromReadable, fromWebStream].map(
        async (d) => (await client.extractions.get(d.id)).source.file,
      ),
    );
    expect(files).toEqual([
      {
        name: 'invoice.txt',
        size: text.length,
        contentType: expect.any(String),
        sha256: sha256(text),
      },
      {
        name: 'invoice.pdf',
        size: pdf.length,
        contentType: 'application/pdf',
        sha256: sha256(pdf),
      },
      expect.objectContaining({ name: 'readable.txt', sha256: sha256(text) }),
      expect.objectContaining({ name: 'web.txt', sha256: sha256(text) }),
    ]);
  });
});

describe('retries', () => {
  it('retries a create answered 503 under the same Idempotency-Key, making one extraction', async () => {
    const before = await extractionCount();
    proxy.reset();
    let creates = 0;
    // The first create reaches the service, but the client is told 503: the retry must not
    // make a second extraction.
    proxy.intercept((req) =>
      req.method === 'POST' && req.path === '/v1/extractions' && creates++ === 0
        ? { forward: true, status: 503, headers: { 'retry-after': '1' } }
        : undefined,
    );
    const created = await client.extractions.create({
      schemaId,
      type: 'text',
      source: 'Invoice total 3',
    });
    const posts = proxy.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[0]!.headers['idempotency-key']).toBeTruthy();
    expect(posts[1]!.headers['idempotency-key']).toBe(posts[0]!.headers['idempotency-key']);
    expect(created.idempotencyKey).toBe(posts[0]!.headers['idempotency-key']);
    expect(created.replayed).toBe(true);
    // Retry-After: 1 is a floor on the wait, whatever the jitter drew.
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(950);
    expect(await extractionCount()).toBe(before + 1);
  });

  it('sends the same upload again under the same key when the first answer is lost', async () => {
    const file = path.join(tmpDir, 'retried.txt');
    await writeFile(file, 'Invoice total 9');
    const before = await extractionCount();
    proxy.reset();
    let creates = 0;
    proxy.intercept((req) =>
      req.method === 'POST' && creates++ === 0 ? { forward: true, status: 503 } : undefined,
    );
    const created = await client.extractions.create(
      { schemaId, type: 'text', source: { path: file } },
      { idempotencyKey: 'upload-retry-1' },
    );
    const posts = proxy.requests.filter((r) => r.method === 'POST');
    expect(posts.map((p) => p.headers['idempotency-key'])).toEqual([
      'upload-retry-1',
      'upload-retry-1',
    ]);
    expect(created.replayed).toBe(true);
    expect(await extractionCount()).toBe(before + 1);
  });

  it('retries a 429 after its Retry-After and a dropped connection on a read', async () => {
    let calls = 0;
    proxy.intercept((req) => {
      if (req.method !== 'GET') return undefined;
      calls++;
      if (calls === 1) return { status: 429, headers: { 'retry-after': '1' } };
      if (calls === 2) return { drop: true };
      return undefined;
    });
    const schema = await client.schemas.get(schemaId);
    expect(schema.id).toBe(schemaId);
    const gets = proxy.requests;
    expect(gets).toHaveLength(3);
    expect(gets[1]!.at - gets[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after maxRetries with the last answer as a typed error', async () => {
    const impatient = new XtClient({
      baseUrl: proxy.url,
      apiKey: api.keys.write,
      maxRetries: 2,
      backoff: { baseMs: 10, maxMs: 50 },
    });
    proxy.intercept(() => ({ status: 503, headers: { 'retry-after': '0' } }));
    const error = await impatient.schemas.get(schemaId).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, retryAfter: 0 });
    expect(proxy.requests).toHaveLength(3);

    proxy.intercept(() => ({ drop: true }));
    const dropped = await impatient.schemas.get(schemaId).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(NetworkError);
  });
});

describe('abort', () => {
  it('stops a request the service holds, and polling, when the signal aborts', async () => {
    proxy.intercept((req) => (req.method === 'GET' ? { hang: true } : undefined));
    const controller = new AbortController();
    const held = client.schemas.get(schemaId, { signal: controller.signal });
    await waitFor(() => proxy.requests.length > 0);
    controller.abort();
    await expect(held).rejects.toMatchObject({ name: 'AbortError' });

    proxy.reset();
    model.behave({ delayMs: 2000 });
    const polling = new AbortController();
    const extracting = client.extract(
      { schemaId, type: 'text', source: 'Invoice total 4' },
      { waitSeconds: 0, initialDelayMs: 60_000, signal: polling.signal },
    );
    await waitFor(() => proxy.requests.length > 0);
    polling.abort();
    await expect(extracting).rejects.toMatchObject({ name: 'AbortError' });

    model.behave({ delayMs: 2000 });
    const timedOut = client.extract(
      { schemaId, type: 'text', source: 'Invoice total 8' },
      { waitSeconds: 0, initialDelayMs: 60_000, timeoutMs: 300 },
    );
    await expect(timedOut).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('webhooks', () => {
  it('manages endpoints and verifies a delivery signed by the service', async () => {
    const endpoint = await client.webhooks.create({
      url: receiverUrl,
      events: ['extraction.completed'],
      description: 'sdk test',
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(await client.webhooks.get(endpoint.id)).not.toHaveProperty('secret');
    expect((await client.webhooks.list()).data.map((e) => e.id)).toContain(endpoint.id);

    model.behave({ output: { total: 5 } });
    const done = await client.extract({ schemaId, type: 'text', source: 'Invoice total 5' });
    const delivery = await waitFor(() =>
      received.find((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === done.id),
    );

    const event = verifyWebhook({
      secret: endpoint.secret,
      headers: delivery.headers,
      body: delivery.body,
    });
    expect(event).toMatchObject({
      type: 'extraction.completed',
      data: { id: done.id, status: 'completed', result: { total: 5 } },
    });
    expect(() =>
      verifyWebhook({
        secret: endpoint.secret,
        headers: delivery.headers,
        body: delivery.body.replace('"total":5', '"total":500'),
      }),
    ).toThrow(WebhookVerificationError);
    expect(() =>
      verifyWebhook({
        secret: endpoint.secret,
        headers: delivery.headers,
        body: delivery.body,
        now: Date.now() + 600_000,
      }),
    ).toThrow(/tolerance/);

    const deliveries = await waitFor(async () => {
      const page = await client.webhooks.deliveries(endpoint.id);
      return page.data.some((d) => d.status === 'delivered') && page;
    });
    expect(deliveries.data[0]).toMatchObject({ eventId: event.id, responseStatus: 200 });

    const rotated = await client.webhooks.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(() =>
      verifyWebhook({ secret: rotated.secret, headers: delivery.headers, body: delivery.body }),
    ).toThrow(WebhookVerificationError);
    const disabled = await client.webhooks.update(endpoint.id, { enabled: false });
    expect(disabled.enabled).toBe(false);
    await client.webhooks.delete(endpoint.id);
    await expect(client.webhooks.get(endpoint.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('extractions', () => {
  it('lists, filters and deletes extractions', async () => {
    model.behave({ output: { total: 6 } });
    const done = await client.extract({
      schemaId,
      type: 'text',
      source: 'Invoice total 6',
      instruction: 'Read the total.',
    });
    const page = await client.extractions.list({ status: 'completed', schema_id: schemaId });
    const listed = page.data.find((r) => r.id === done.id);
    expect(listed).toMatchObject({
      input: { schema_id: schemaId, type: 'text', instruction: 'Read the total.' },
      output: { total: 6 },
    });
    expect(typeof listed!.totalTokens).toBe('string');

    proxy.reset();
    const walked: string[] = [];
    for await (const record of client.extractions.all({ limit: 2 })) walked.push(record.id);
    const onePage = await client.extractions.list({ limit: 100 });
    expect(onePage.meta.total).toBeGreaterThan(4);
    expect(walked).toEqual(onePage.data.map((r) => r.id));
    expect(proxy.requests.length - 1).toBe(Math.ceil(onePage.meta.total / 2));
    await client.extractions.delete(done.id);
    await expect(client.extractions.get(done.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('reviews', () => {
  it('lists the queue, reviews once and refuses a second review with 409', async () => {
    const schema = await client.schemas.create({
      name: `review-${Date.now()}`,
      structure: invoice,
      review: { minConfidence: 0.5, sample: 1 },
    });
    const done = await client.extract({ schemaId: schema.id, type: 'text', source: 'Total 3' });
    const queue = await client.reviews.list({ schema_id: schema.id, status: 'needs_review' });
    expect(queue.data.map((e) => e.id)).toEqual([done.id]);
    const reviewed = await client.extractions.review(done.id, {
      decision: 'approve',
      corrections: { '/total': 3 },
    });
    expect(reviewed.review?.status).toBe('approved');
    expect(reviewed.reviewedResult).toEqual({ total: 3 });
    const again = await client.extractions.review(done.id, { decision: 'reject' }).catch((e) => e);
    expect(again).toBeInstanceOf(ApiError);
    expect((again as ApiError).status).toBe(409);
  });
});

describe('bundles (split)', () => {
  const classes = () => [
    { name: 'invoice', description: 'A bill asking for payment', schema_id: schemaId },
    { name: 'contract' },
  ];

  it("cuts a bundle into documents and answers each document's extraction", async () => {
    const file = path.join(tmpDir, 'bundle.pdf');
    await writeFile(file, await bundlePdf());
    // Uploaded: multipart, the split a JSON text field, no schema_id of the bundle's own.
    const done = await client.split({ path: file }, { classes: classes() });

    expect(done.parent).toMatchObject({
      status: 'completed',
      schemaId: null,
      split: { classes: classes(), other: true },
    });
    expect(done.documents.map(({ class: c, pages }) => ({ class: c, pages }))).toEqual(
      BUNDLE_DOCUMENTS,
    );
    expect(done.parent.result).toEqual({
      documents: done.documents.map(({ extraction: _, ...d }) => d),
    });
    // The second page of the first invoice names no class: it continues the invoice, and the
    // invoice is as sure as its least sure page.
    expect(done.documents.map((d) => d.confidence)).toEqual([0.5, 0.8, 0.95, 0.95]);
    // Only the invoices name a schema: they alone have an extraction.
    const extracted = done.documents.filter((d) => d.extraction);
    expect(done.documents.map((d) => d.extractionId !== null)).toEqual([false, true, false, true]);
    for (const { extraction, extractionId, pages } of extracted) {
      expect(extraction).toMatchObject({
        id: extractionId,
        status: 'completed',
        schemaId,
        parentId: done.parent.id,
        pages,
        source: { type: 'pdf', content: 'bundle.pdf' },
      });
    }
    const children = await client.extractions.list({ parent_id: done.parent.id });
    expect(children.data.map((c) => c.id).sort()).toEqual(
      extracted.map((d) => d.extractionId).sort(),
    );
    // The same answer from the bundle's id alone, as after a webhook.
    const again = await client.extractions.documents(done.parent.id);
    expect(again.documents.map((d) => d.extraction?.id ?? null)).toEqual(
      done.documents.map((d) => d.extractionId),
    );
  });

  it('a refused split names its field, in JSON (a URL) and multipart alike', async () => {
    for (const source of [
      'https://example.com/mail/bundle.pdf',
      { data: await bundlePdf(), filename: 'bundle.pdf' },
    ]) {
      const reserved = await client
        .split(source, { classes: [{ name: 'other' }] })
        .catch((e: unknown) => e);
      expect(reserved).toBeInstanceOf(ApiError);
      expect((reserved as ApiError).fields).toEqual(['split.classes[0].name']);
    }
    // The types allow a schema id or a split, never both; the service says why too.
    const both = await client.extractions
      .create({
        schemaId,
        type: 'pdf',
        source: { data: await bundlePdf(), filename: 'bundle.pdf' },
        split: { classes: classes() },
      } as never)
      .catch((e: unknown) => e);
    expect(both).toMatchObject({ status: 422, fields: ['schema_id'] });
  });

  it('refuses to read documents of an extraction that is no bundle', async () => {
    const done = await client.extract({ schemaId, type: 'text', source: 'Total 9' });
    await expect(client.extractions.documents(done.id)).rejects.toThrow(
      `extraction ${done.id} is not a completed bundle`,
    );
  });
});
