/**
 * A reused extraction keeps its evidence (docs/reuse.md#evidence): repeating an uploaded DOCX
 * and an XLSX with citations on the same account answers from the earlier extractions at create,
 * a PDF by URL in the worker after fetching, and the dashboard's review routes serve the copies
 * the same page previews and sheet cells as the originals, byte for byte, after the original is
 * deleted and after the retention sweep has removed the original's upload. Real API, worker,
 * PostgreSQL and Redis; the model stand-in answers the first request of each source.
 */
import { afterAll, describe, expect } from 'vitest';
import { createUser } from '@xt/accounts';
import { createDb } from '@xt/db';
import {
  flatTextDocument,
  officeFile,
  placedTextPdf,
  startFixtureServer,
  workbookFiles,
  type FixtureRoute,
  type FixtureSheet,
} from '@xt/testkit/fixtures';
import { openTestPool, waitFor, type ModelStandIn } from '@xt/testkit';
import { startTestWorker, type TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

// Filled by the URL test: the server looks its routes up per request.
const routes: Record<string, FixtureRoute> = {};
const fixtures = await startFixtureServer(routes);
const allow = `127.0.0.1:${fixtures.port}`;
afterAll(() => fixtures.close());

// Test APIs reuse nothing unless asked (`CACHE_MAX_AGE_SECONDS: 0`): this file asks.
const test = stackTest({
  api: {
    EXTRACTION_WAIT_SECONDS: '120',
    CACHE_MAX_AGE_SECONDS: '604800',
    SOURCE_ALLOWLIST: allow,
  },
  worker: { SOURCE_ALLOWLIST: allow },
});

const OUTPUT = { number: 'INV-2048', total: 9876.54 };
const STRUCTURE = {
  type: 'object',
  properties: { number: { type: 'string' }, total: { type: 'number' } },
};
const SHEET: FixtureSheet = {
  name: 'Invoice',
  rows: [
    ['Supplier', 'ACME Supplies Ltd'],
    ['Number', 'INV-2048'],
    ['Total', 9876.54],
  ],
};
const PASSWORD = 'correct horse battery staple';

/** Signs a dashboard user of the API keys' account in; answers a GET with its session. */
async function dashboard(api: TestApi, email: string) {
  const handle = createDb(api.database.url, { max: 1 });
  await createUser(handle.db, { accountName: 'acme', email, password: PASSWORD });
  await handle.close();
  const signIn = await fetch(`${api.url}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: api.url },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return async (path: string) => {
    const res = await fetch(`${api.url}/dashboard/api/extractions/${path}`, {
      headers: { cookie },
    });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };
}

type Dashboard = Awaited<ReturnType<typeof dashboard>>;

/** What the review view shows of an extraction: its review, every page preview and its cells. */
async function evidence(get: Dashboard, id: string) {
  const review = await get(`${id}/review`);
  expect(review.status).toBe(200);
  const data = (JSON.parse(review.bytes.toString()) as { data: Record<string, unknown> }).data;
  const pages: Record<number, Buffer> = {};
  for (const page of data.previewPages as number[]) {
    const jpeg = await get(`${id}/pages/${page}`);
    expect(jpeg.status, `page ${page} of ${id}`).toBe(200);
    pages[page] = jpeg.bytes;
  }
  const cells = data.cells ? await get(`${id}/cells`) : undefined;
  if (cells) expect(cells.status, `cells of ${id}`).toBe(200);
  return {
    previewPages: data.previewPages,
    cells: data.cells,
    pages,
    excerpt: cells && (JSON.parse(cells.bytes.toString()) as { data: unknown }).data,
  };
}

function upload(schemaId: string, type: string, bytes: Buffer, name: string): FormData {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', type);
  form.append('citations', 'true');
  form.append('source', new Blob([bytes]), name);
  return form;
}

/**
 * The retention sweep removes the original's upload and evidence: it is made two hours old, and
 * a worker keeping uploads an hour sweeps until `gone` answers 404.
 */
async function sweepEvidence(
  api: TestApi,
  model: ModelStandIn,
  originalId: string,
  gone: () => Promise<{ status: number }>,
): Promise<void> {
  const db = openTestPool(api.database.url);
  const sweeper = await startTestWorker(api, model.url, {
    UPLOAD_RETENTION_HOURS: '1',
    UPLOAD_SWEEP_INTERVAL_MS: '300',
  });
  try {
    await db.query(
      `update extractions set finished_at = now() - interval '2 hours' where id = $1`,
      [originalId],
    );
    await waitFor(async () => ((await gone()).status === 404 ? true : undefined), 30_000);
  } finally {
    await sweeper.stop();
    await db.end();
  }
}

type Request = { body: FormData } | { json: Record<string, unknown> };

/** The source extracted, then again: the second answer is the first one's, reused. */
async function extractTwice(api: TestApi, request: () => Request) {
  const original = await api.request('POST', '/v1/extractions', request());
  expect(original.status, original.text).toBe(200);
  expect(original.body.data.citations['/number']).toMatchObject({ grounded: true });
  const copy = await api.request('POST', '/v1/extractions', request());
  expect(copy.status, copy.text).toBe(200);
  expect(copy.body.data.reused).toEqual({ extractionId: original.body.data.id });
  expect(copy.body.data.citations).toEqual(original.body.data.citations);
  return { originalId: original.body.data.id as string, copyId: copy.body.data.id as string };
}

describe('a reused extraction keeps its evidence', () => {
  test('a DOCX’s page previews, still there once the original is deleted', async ({
    api,
    model,
  }) => {
    const get = await dashboard(api, 'docx@acme.test');
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Invoice (DOCX)', structure: STRUCTURE },
    });
    const docx = await officeFile(
      flatTextDocument({
        paragraphs: ['ACME Supplies Ltd', 'Invoice INV-2048', 'Total due: 9876.54 EUR'],
      }),
      'docx',
    );
    model.setDefaultBehaviour({ output: OUTPUT });
    const { originalId, copyId } = await extractTwice(api, () => ({
      body: upload(schema.body.data.id, 'document', docx, 'invoice.docx'),
    }));
    const calls = model.requests.length;

    const shown = await evidence(get, originalId);
    expect(shown.previewPages).toEqual([1]);
    expect(await evidence(get, copyId)).toEqual(shown);

    expect((await api.request('DELETE', `/v1/extractions/${originalId}`)).status).toBe(200);
    expect((await get(`${originalId}/pages/1`)).status).toBe(404);
    expect(await evidence(get, copyId)).toEqual(shown);
    expect(model.requests.length).toBe(calls);
  });

  test('an XLSX’s cells, still there once the sweep removed the original’s upload', async ({
    api,
    model,
  }) => {
    const get = await dashboard(api, 'xlsx@acme.test');
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Invoice (XLSX)', structure: STRUCTURE },
    });
    const { xlsx } = await workbookFiles([SHEET], ['xlsx']);
    model.setDefaultBehaviour({ output: OUTPUT });
    const { originalId, copyId } = await extractTwice(api, () => ({
      body: upload(schema.body.data.id, 'spreadsheet', xlsx, 'invoice.xlsx'),
    }));

    const shown = await evidence(get, originalId);
    expect(shown.cells).toBe(true);
    expect(JSON.stringify(shown.excerpt)).toContain('INV-2048');
    expect(await evidence(get, copyId)).toEqual(shown);

    // The original finished two hours ago, the copy just now: a sweep keeping uploads an hour
    // removes the original's upload and evidence, never the copy's.
    await sweepEvidence(api, model, originalId, () => get(`${originalId}/cells`));
    expect(await evidence(get, copyId)).toEqual(shown);
    expect((await api.request('DELETE', `/v1/extractions/${originalId}`)).status).toBe(200);
    expect(await evidence(get, copyId)).toEqual(shown);
  });

  test('a PDF fetched by URL, reused by the worker after fetching', async ({ api, model }) => {
    const get = await dashboard(api, 'url@acme.test');
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Invoice (URL)', structure: STRUCTURE },
    });
    const { pdf } = await placedTextPdf([
      [{ text: 'Invoice INV-2048', x: 72, y: 720 }],
      [{ text: 'Total due: 9876.54 EUR', x: 72, y: 400 }],
    ]);
    routes['/invoice.pdf'] = { body: pdf, contentType: 'application/pdf' };
    model.setDefaultBehaviour({ output: OUTPUT });
    const { originalId, copyId } = await extractTwice(api, () => ({
      json: {
        schema_id: schema.body.data.id,
        type: 'pdf',
        source: `${fixtures.url}/invoice.pdf`,
        citations: true,
      },
    }));

    const shown = await evidence(get, originalId);
    expect(shown.previewPages).toEqual([1, 2]);
    expect(await evidence(get, copyId)).toEqual(shown);
    expect((await api.request('DELETE', `/v1/extractions/${originalId}`)).status).toBe(200);
    expect(await evidence(get, copyId)).toEqual(shown);
  });

  test('a URL answer whose evidence was swept: the copy draws its own from what it fetched', async ({
    api,
    model,
  }) => {
    const get = await dashboard(api, 'swept@acme.test');
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Invoice (swept)', structure: STRUCTURE },
    });
    const { pdf } = await placedTextPdf([
      [{ text: 'Invoice INV-2048 from Umbrella Corp', x: 72, y: 700 }],
      [{ text: 'Total due: 9876.54 EUR', x: 300, y: 200 }],
    ]);
    routes['/swept.pdf'] = { body: pdf, contentType: 'application/pdf' };
    model.setDefaultBehaviour({ output: OUTPUT });
    const request = () => ({
      json: {
        schema_id: schema.body.data.id,
        type: 'pdf',
        source: `${fixtures.url}/swept.pdf`,
        citations: true,
      },
    });
    const original = await api.request('POST', '/v1/extractions', request());
    expect(original.status, original.text).toBe(200);
    const originalId = original.body.data.id as string;
    const shown = await evidence(get, originalId);
    expect(shown.previewPages).toEqual([1, 2]);

    // A URL's answer outlives its previews: still reused once they are swept.
    await sweepEvidence(api, model, originalId, () => get(`${originalId}/pages/1`));
    const calls = model.requests.length;
    const copy = await api.request('POST', '/v1/extractions', request());
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body.data.reused).toEqual({ extractionId: originalId });
    expect(model.requests.length).toBe(calls);
    // Drawn afresh from the same bytes: the same pictures.
    expect(await evidence(get, copy.body.data.id)).toEqual(shown);
  });
});
