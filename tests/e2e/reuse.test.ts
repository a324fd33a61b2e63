/**
 * Reuse of finished answers through the whole service (docs/reuse.md): a repeated request
 * completes at once from the earlier answer, with its own id, 0 tokens and no charge, and the
 * model stand-in proves nothing reached it; anything that would change the answer (another
 * account, structure, instruction, model, citations, content, an older answer than asked, a
 * deleted original, `cache: false`) does the work afresh. URL sources are matched by the
 * worker after fetching, by what was fetched rather than by the address.
 */
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scannedPdf, startFixtureServer, textPdf, type FixtureServer } from '@xt/testkit/fixtures';
import {
  openTestPool,
  startModelStandIn,
  waitFor,
  type AppProcess,
  type ModelStandIn,
} from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '@xt/api/testing';
import { createInvoiceSchema, INVOICE_STRUCTURE } from '../support/schemas.ts';

checkResponsesAgainstOpenApi();

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let fixtures: FixtureServer;
let db: pg.Pool;
let schemaId: string;
let invoicePdf: Buffer;

beforeAll(async () => {
  invoicePdf = await textPdf(['Invoice 2026-117 from Umbrella Corp', 'Total due 4321.50 EUR']);
  fixtures = await startFixtureServer({
    '/a/invoice.pdf': { body: invoicePdf, contentType: 'application/pdf' },
    // The same bytes at another address: reused, since the content is what counts.
    '/b/copy.pdf': { body: invoicePdf, contentType: 'application/pdf' },
    '/c/other.pdf': {
      body: await textPdf(['Invoice 2026-118 from Umbrella Corp', 'Total due 10.00 EUR']),
      contentType: 'application/pdf',
    },
  });
  const allow = `127.0.0.1:${fixtures.port}`;
  model = await startModelStandIn();
  api = await startTestApi({
    SOURCE_ALLOWLIST: allow,
    EXTRACTION_WAIT_SECONDS: '60',
    CACHE_MAX_AGE_SECONDS: '604800',
    // Only so the test can subscribe an endpoint; nothing listens there.
    WEBHOOK_ALLOWLIST: '127.0.0.1:9',
  });
  worker = await startTestWorker(api, model.url, { SOURCE_ALLOWLIST: allow, PREP_THREADS: '1' });
  db = openTestPool(api.database.url);
  schemaId = await createInvoiceSchema(api);
});

afterAll(async () => {
  await worker?.stop();
  await db?.end();
  await api?.close();
  await model?.close();
  await fixtures?.close();
});

beforeEach(() => model.reset());

let counter = 0;
/** A text no earlier test sent, so each test starts without an answer to reuse. */
const freshText = () => `Invoice ${++counter}-${Date.now()}. Total due: ${counter}.50 EUR`;

const create = (json: Record<string, unknown>, key?: string | null) =>
  api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', ...json },
    ...(key !== undefined ? { key } : {}),
  });

async function records(id: string, key?: string) {
  const opts = key ? { key } : {};
  const single = await api.request('GET', `/v1/extractions/${id}`, opts);
  const list = await api.request('GET', '/v1/extractions?limit=100', opts);
  return {
    single: single.body.data,
    listed: list.body.data.data.find((r: { id: string }) => r.id === id),
  };
}

describe('a repeated request', () => {
  it('completes at once from the earlier answer: own id, 0 tokens, uncharged, nothing sent', async () => {
    const source = freshText();
    const first = await create({ source });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.totalTokens).toBeGreaterThan(0);
    expect(first.body.data).not.toHaveProperty('reused');
    expect(model.requests).toHaveLength(1);

    const second = await create({ source });
    expect(second.status, second.text).toBe(200);
    expect(second.body.data).toMatchObject({
      status: 'completed',
      output: first.body.data.output,
      totalTokens: 0,
      reused: { extractionId: first.body.data.id },
    });
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(model.requests).toHaveLength(1);

    const { single, listed } = await records(second.body.data.id);
    expect(single).toMatchObject({
      status: 'completed',
      result: first.body.data.output,
      totalTokens: 0,
      charged: false,
      reused: { extractionId: first.body.data.id },
    });
    expect(listed).toMatchObject({
      status: 'completed',
      output: first.body.data.output,
      totalTokens: '0',
      charged: false,
      reused: { extractionId: first.body.data.id },
    });
    const original = await records(first.body.data.id);
    expect(original.single).toMatchObject({ charged: true });
    expect(original.single).not.toHaveProperty('reused');
  });

  it('takes an earlier answer of another schema with the same structure, and its citations', async () => {
    const twin = await api.request('POST', '/v1/schemas', {
      json: { name: 'Invoice copy', structure: INVOICE_STRUCTURE },
    });
    const source = freshText();
    const first = await create({ source, citations: true });
    expect(first.status).toBe(200);
    const second = await create({ source, citations: true, schema_id: twin.body.data.id });
    expect(second.body.data).toMatchObject({
      reused: { extractionId: first.body.data.id },
      citations: first.body.data.citations,
    });
    expect(Object.keys(second.body.data.citations)).toContain('/total');
    expect(model.requests).toHaveLength(1);
  });

  it('does the work afresh when anything that decides the answer differs', async () => {
    const source = freshText();
    const first = await create({ source });
    expect(first.status).toBe(200);
    const otherStructure = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Invoice with currency',
        structure: {
          type: 'object',
          properties: { total: { type: 'number' }, currency: { type: 'string' } },
        },
      },
    });
    const variants: Record<string, unknown>[] = [
      { schema_id: otherStructure.body.data.id },
      { instruction: 'Give the total in cents.' },
      { model: 'gpt-4.1-mini' },
      { citations: true },
      { source: `${source} ` },
      { cache: false },
    ];
    for (const variant of variants) {
      const res = await create({ source, ...variant });
      expect(res.status, JSON.stringify(variant)).toBe(200);
      expect(res.body.data, JSON.stringify(variant)).not.toHaveProperty('reused');
      expect(res.body.data.totalTokens).toBeGreaterThan(0);
    }
    expect(model.requests).toHaveLength(1 + variants.length);
  });

  it('never reuses across accounts', async () => {
    const source = freshText();
    const mine = await create({ source });
    expect(mine.status).toBe(200);
    const theirSchema = await api.request('POST', '/v1/schemas', {
      key: api.keys.other,
      json: { name: 'Invoice', structure: INVOICE_STRUCTURE },
    });
    const theirs = await create({ source, schema_id: theirSchema.body.data.id }, api.keys.other);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).not.toHaveProperty('reused');
    expect(model.requests).toHaveLength(2);
  });

  it('honours maxAge, and a deleted original is never reused', async () => {
    const source = freshText();
    const first = await create({ source });
    // The answer is an hour old now.
    await db.query(`update extractions set finished_at = now() - interval '1 hour' where id = $1`, [
      first.body.data.id,
    ]);
    const tooOld = await create({ source, cache: { maxAge: 600 } });
    expect(tooOld.body.data).not.toHaveProperty('reused');
    // The fresher answer is the newest; an hour and a half is old enough for either.
    const reused = await create({ source, cache: { maxAge: 5400 } });
    expect(reused.body.data.reused).toEqual({ extractionId: tooOld.body.data.id });
    expect(model.requests).toHaveLength(2);

    for (const id of [first.body.data.id, tooOld.body.data.id])
      expect((await api.request('DELETE', `/v1/extractions/${id}`)).status).toBe(200);
    const afterDelete = await create({ source });
    expect(afterDelete.body.data).not.toHaveProperty('reused');
    expect(model.requests).toHaveLength(3);
    // The copy keeps its answer: deleting the original only ends further reuse.
    expect((await records(reused.body.data.id)).single).toMatchObject({
      status: 'completed',
      result: reused.body.data.output,
    });
  });

  it('reads cache_max_age and cache=false from forms', async () => {
    const source = freshText();
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries({ schema_id: schemaId, type: 'text', source, ...fields }))
        f.append(k, v);
      return api.request('POST', '/v1/extractions', { body: f });
    };
    const first = await form({});
    expect((await form({ cache: 'false' })).body.data).not.toHaveProperty('reused');
    const reused = await form({ cache_max_age: '60' });
    expect(reused.body.data.reused?.extractionId).toBeDefined();
    expect([first.body.data.id]).not.toContain(reused.body.data.id);
    const refused = await form({ cache: 'false', cache_max_age: '60' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { field: 'cache_max_age', message: expect.stringContaining('cache=false') },
    ]);
    expect(model.requests).toHaveLength(2);
  });

  it('announces a reused completion to webhooks like any other', async () => {
    const hook = await api.request('POST', '/v1/webhooks', {
      json: { url: 'http://127.0.0.1:9/hook', events: ['extraction.completed'] },
    });
    expect(hook.status, hook.text).toBe(201);
    try {
      const source = freshText();
      await create({ source });
      const second = await create({ source, metadata: { batch: 'again' } });
      expect(second.body.data.reused).toBeDefined();
      const events = await db.query<{ type: string; body: string }>(
        'select type, body from webhook_events where extraction_id = $1',
        [second.body.data.id],
      );
      expect(events.rows).toHaveLength(1);
      expect(events.rows[0]!.type).toBe('extraction.completed');
      expect(JSON.parse(events.rows[0]!.body)).toMatchObject({
        data: { id: second.body.data.id, charged: false, totalTokens: 0, reused: {} },
        metadata: { batch: 'again' },
      });
    } finally {
      await api.request('DELETE', `/v1/webhooks/${hook.body.data.id}`);
    }
  });

  it('answers an Idempotency-Key repeat with the same reused extraction', async () => {
    const source = freshText();
    await create({ source });
    const headers = { 'idempotency-key': `reuse-${counter}` };
    const once = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source },
      headers,
    });
    const twice = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source },
      headers,
    });
    expect(once.body.data.reused).toBeDefined();
    expect(twice.headers.get('idempotent-replayed')).toBe('true');
    expect(twice.body.data.id).toBe(once.body.data.id);
  });
});

describe('uploads', () => {
  const upload = (name: string) => {
    const f = new FormData();
    f.append('schema_id', schemaId);
    f.append('type', 'pdf');
    f.append('source', new Blob([new Uint8Array(invoicePdf)]), name);
    return api.request('POST', '/v1/extractions', { body: f });
  };

  it('the same PDF uploaded twice completes the second time at once, without storing it', async () => {
    const first = await upload('invoice.pdf');
    expect(first.status, first.text).toBe(200);
    expect(model.requests).toHaveLength(1);
    const second = await upload('again.pdf');
    expect(second.status, second.text).toBe(200);
    expect(second.body.data).toMatchObject({
      totalTokens: 0,
      output: first.body.data.output,
      reused: { extractionId: first.body.data.id },
    });
    expect(model.requests).toHaveLength(1);
    const { single } = await records(second.body.data.id);
    expect(single.source).toMatchObject({
      content: 'again.pdf',
      file: { name: 'again.pdf', size: invoicePdf.length },
    });
    const stored = await db.query('select file_ref from extractions where id = $1', [
      second.body.data.id,
    ]);
    expect(stored.rows[0].file_ref).toBeNull();
  });
});

describe('URL sources', () => {
  const byUrl = (path: string, extra: Record<string, unknown> = {}) =>
    create({ type: 'pdf', source: `${fixtures.url}${path}`, ...extra });

  it('are matched by the worker on what was fetched, whatever the address', async () => {
    const first = await byUrl('/a/invoice.pdf');
    expect(first.status, first.text).toBe(200);
    expect(model.requests).toHaveLength(1);
    const fetchedBefore = fixtures.requests.length;

    const copy = await byUrl('/b/copy.pdf');
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body.data).toMatchObject({
      totalTokens: 0,
      output: first.body.data.output,
      reused: { extractionId: first.body.data.id },
    });
    // Fetched (only then is its content known), but nothing reached the model.
    expect(fixtures.requests.length).toBeGreaterThan(fetchedBefore);
    expect(model.requests).toHaveLength(1);
    expect((await records(copy.body.data.id)).single).toMatchObject({ charged: false });

    const other = await byUrl('/c/other.pdf');
    expect(other.body.data).not.toHaveProperty('reused');
    const again = await byUrl('/a/invoice.pdf', { cache: false });
    expect(again.body.data).not.toHaveProperty('reused');
    expect(model.requests).toHaveLength(3);
  });

  it('waiting clients and pollers see the reused completion', async () => {
    const first = await byUrl('/c/other.pdf', { instruction: 'Only the total.' });
    expect(first.status).toBe(200);
    const accepted = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schemaId,
        type: 'pdf',
        source: `${fixtures.url}/c/other.pdf`,
        instruction: 'Only the total.',
      },
      headers: { prefer: 'respond-async' },
    });
    expect(accepted.status).toBe(202);
    const done = await waitFor(async () => {
      const { single } = await records(accepted.body.data.id);
      return single.status === 'completed' ? single : undefined;
    });
    expect(done).toMatchObject({ reused: { extractionId: first.body.data.id }, charged: false });
  });
});

describe('preparations', () => {
  it('reads a scanned file once: the second extraction of it skips the OCR, citations and all', async () => {
    // The model quotes the page, so the citation has a page to preview.
    model.setDefaultBehaviour({ output: { total: 4242 } });
    const scan = await scannedPdf(['SCANNED RECEIPT 4242']);
    const send = () => {
      const f = new FormData();
      f.append('schema_id', schemaId);
      f.append('type', 'pdf');
      f.append('citations', 'true');
      // The answer is not reused, so the model is asked again: only the reading is saved.
      f.append('cache', 'false');
      f.append('source', new Blob([new Uint8Array(scan)]), 'scan.pdf');
      return api.request('POST', '/v1/extractions', { body: f });
    };
    const first = await send();
    expect(first.status, first.text).toBe(200);
    const second = await send();
    expect(second.status, second.text).toBe(200);
    // Said in the worker's log of the second job (written in batches: looked for until shown).
    const readBefore = (id: string) =>
      worker
        .output()
        .split('\n')
        .some((l) => l.includes(id) && l.includes('source read from an earlier preparation'));
    await waitFor(() => readBefore(second.body.data.id));
    expect(readBefore(first.body.data.id)).toBe(false);
    // The model saw the same page both times, and the citations come from the same reading.
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.images).toEqual(model.requests[0]!.images);
    expect(model.requests[1]!.text).toEqual(model.requests[0]!.text);
    expect(second.body.data.citations).toEqual(first.body.data.citations);
    // The page bytes kept for previews came back with it.
    const previews = await db.query<{ id: string; page_images: unknown }>(
      'select id, page_images from extractions where id = any($1::uuid[])',
      [[first.body.data.id, second.body.data.id]],
    );
    const pages = previews.rows.map((r) => Object.keys(r.page_images ?? {}));
    expect(pages).toEqual([['1'], ['1']]);

    const stored = () =>
      db.query('select count(*)::int as n from prepared_sources where extraction_id = $1', [
        first.body.data.id,
      ]);
    expect((await stored()).rows[0].n).toBe(1);
    // Deleting the extraction whose job read it deletes what was read.
    expect((await api.request('DELETE', `/v1/extractions/${first.body.data.id}`)).status).toBe(200);
    expect((await stored()).rows[0].n).toBe(0);
    model.setDefaultBehaviour({});
  });
});
