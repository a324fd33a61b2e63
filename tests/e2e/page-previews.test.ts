/**
 * Page previews through the whole service (docs/citations.md#review-view): a PDF extraction with
 * citations gets a JPEG of each page a value was found on, stored in the blob store and named in
 * `page_images`, whether the PDF came by URL or as an upload; none without citations; they go with
 * the extraction when it is deleted, and with the upload's bytes after the retention period.
 * Real API, worker processes, PostgreSQL and Redis; the model stand-in answers.
 */
import type pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placedTextPdf, startFixtureServer, type FixtureServer } from '@xt/testkit/fixtures';
import {
  openTestPool,
  startModelStandIn,
  waitFor,
  type AppProcess,
  type ModelStandIn,
} from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let fixtures: FixtureServer;
let db: pg.Pool;
let pdf: Buffer;
let schemaId: string;

beforeAll(async () => {
  const placed = await placedTextPdf([
    [
      { text: 'ACME Supplies Ltd', x: 72, y: 720, size: 16 },
      { text: 'INV-2048', x: 72, y: 644 },
    ],
    [{ text: 'Terms and conditions apply to every order.', x: 72, y: 700 }],
    [{ text: '9,876.54', x: 320, y: 180, size: 14 }],
  ]);
  pdf = placed.pdf;
  fixtures = await startFixtureServer({
    '/invoice.pdf': { body: pdf, contentType: 'application/pdf' },
  });
  model = await startModelStandIn();
  model.setDefaultBehaviour({ output: { number: 'INV-2048', total: 9876.54 } });
  const allow = `127.0.0.1:${fixtures.port}`;
  api = await startTestApi({ SOURCE_ALLOWLIST: allow, EXTRACTION_WAIT_SECONDS: '60' });
  worker = await startTestWorker(api, model.url, { SOURCE_ALLOWLIST: allow, PREP_THREADS: '1' });
  db = openTestPool(api.database.url);
  const schema = await api.request('POST', '/v1/schemas', {
    json: {
      name: 'Invoice',
      structure: {
        type: 'object',
        properties: { number: { type: 'string' }, total: { type: 'number' } },
      },
    },
  });
  schemaId = schema.body.data.id;
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await db?.end();
  await api?.close();
  await model?.close();
  await fixtures?.close();
});

async function pageImages(id: string): Promise<Record<string, string> | null> {
  const r = await db.query('select page_images from extractions where id = $1', [id]);
  return (r.rows[0] as { page_images: Record<string, string> | null }).page_images;
}

async function blob(ref: string): Promise<Buffer | undefined> {
  const r = await db.query('select data from blob_chunks where ref = $1 order by seq', [ref]);
  if (r.rows.length === 0) return undefined;
  return Buffer.concat(r.rows.map((row: { data: Buffer }) => row.data));
}

const byUrl = (citations?: boolean) =>
  api.request('POST', '/v1/extractions', {
    json: {
      schema_id: schemaId,
      type: 'pdf',
      source: `${fixtures.url}/invoice.pdf`,
      ...(citations === undefined ? {} : { citations }),
    },
  });

function byUpload() {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', 'pdf');
  form.append('citations', 'true');
  form.append('source', new Blob([pdf]), 'invoice.pdf');
  return api.request('POST', '/v1/extractions', { body: form });
}

describe('page previews', () => {
  it('stores a JPEG of each page a value was found on, for URLs and uploads alike', async () => {
    for (const res of [await byUrl(true), await byUpload()]) {
      expect(res.status).toBe(200);
      expect(res.body.data.citations['/number']).toMatchObject({ grounded: true, page: 1 });
      expect(res.body.data.citations['/total']).toMatchObject({ grounded: true, page: 3 });
      const images = await pageImages(res.body.data.id);
      expect(Object.keys(images ?? {}).sort()).toEqual(['1', '3']);
      for (const ref of Object.values(images!)) {
        const jpeg = await blob(ref);
        const meta = await sharp(jpeg).metadata();
        expect(meta).toMatchObject({ format: 'jpeg', width: 1000 });
      }
      // The records themselves do not change: previews are the dashboard's.
      const record = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
      expect(record.body.data).not.toHaveProperty('pageImages');
      expect(record.body.data).not.toHaveProperty('page_images');
    }
  });

  it('stores none without citations', async () => {
    for (const res of [await byUrl(), await byUrl(false)]) {
      expect(res.status).toBe(200);
      expect(await pageImages(res.body.data.id)).toBeNull();
    }
  });

  it('removes them with the extraction', async () => {
    const res = await byUrl(true);
    const refs = Object.values((await pageImages(res.body.data.id)) ?? {});
    expect(refs).toHaveLength(2);
    const deleted = await api.request('DELETE', `/v1/extractions/${res.body.data.id}`);
    expect(deleted.status).toBe(200);
    for (const ref of refs) expect(await blob(ref)).toBeUndefined();
  });

  it('removes them with the upload’s bytes once the retention period has passed', async () => {
    const res = await byUpload();
    const refs = Object.values((await pageImages(res.body.data.id)) ?? {});
    expect(refs).toHaveLength(2);
    // A worker whose retention is zero sweeps them on its own schedule.
    const sweeper = await startTestWorker(api, model.url, {
      UPLOAD_RETENTION_HOURS: '0',
      UPLOAD_SWEEP_INTERVAL_MS: '300',
    });
    try {
      await waitFor(
        async () => ((await pageImages(res.body.data.id)) === null ? true : undefined),
        30_000,
      );
      for (const ref of refs) expect(await blob(ref)).toBeUndefined();
      // The record keeps its citations: the view then draws the boxes on a blank page.
      const record = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
      expect(record.body.data.citations['/total']).toMatchObject({ grounded: true, page: 3 });
      expect(record.body.data.source.file.removedAt).toEqual(expect.any(String));
    } finally {
      await sweeper.stop();
    }
  }, 120_000);
});
