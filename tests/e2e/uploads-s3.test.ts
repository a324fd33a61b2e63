/**
 * Uploads with `BLOB_STORE=s3`, against a real S3-protocol server (s3rver) the test starts:
 * the API streams each file part into the bucket, the worker process reads it back from there,
 * deleting the extraction removes the object, and while the store is down a create is 503
 * UNAVAILABLE with nothing kept (no row without its bytes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import {
  openTestPool,
  startModelStandIn,
  waitFor,
  type AppProcess,
  type ModelStandIn,
} from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';
import { createInvoiceSchema } from '../support/schemas.ts';

let s3: S3rver;
let dir: string;
let port: number;
let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let db: pg.Pool;
let schemaId: string;
let client: S3Client;

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

async function startS3(at = 0): Promise<void> {
  s3 = new S3rver({
    address: '127.0.0.1',
    port: at,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'xt-uploads', configs: [] }],
  });
  port = ((await s3.run()) as { port: number }).port;
}

const objects = async () =>
  (await client.send(new ListObjectsV2Command({ Bucket: 'xt-uploads', Prefix: 'uploads/' })))
    .Contents ?? [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'xt-s3rver-'));
  await startS3();
  const env = {
    BLOB_STORE: 's3',
    S3_BUCKET: 'xt-uploads',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    // The SDK's standard credential chain, as in production.
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  };
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
  model = await startModelStandIn();
  api = await startTestApi({ ...env, EXTRACTION_WAIT_SECONDS: '30' });
  worker = await startTestWorker(api, model.url, { ...env, PREP_THREADS: '1' });
  db = openTestPool(api.database.url);
  client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
  });
  schemaId = await createInvoiceSchema(api);
});

afterAll(async () => {
  await worker?.stop();
  await db?.end();
  await api?.close();
  await model?.close();
  await s3?.close().catch(() => undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function upload(bytes: Buffer) {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', 'pdf');
  form.append('source', new Blob([bytes]), 'invoice.pdf');
  return api.request('POST', '/v1/extractions', { body: form });
}

it('stores the upload in the bucket, which the worker reads, and deleting removes it', async () => {
  const pdf = await textPdf(['Invoice 7 from Umbrella Corp', 'Total due 4321.50 EUR']);
  const res = await upload(pdf);
  expect(res.status, res.text).toBe(200);
  expect(model.requests.at(-1)?.text).toContain('Total due 4321.50 EUR');
  const { rows } = await db.query('select file_ref from extractions where id = $1', [
    res.body.data.id,
  ]);
  const stored = await objects();
  expect(stored.map((o) => o.Key)).toContain(`uploads/${rows[0].file_ref}`);
  expect(stored.find((o) => o.Key === `uploads/${rows[0].file_ref}`)?.Size).toBe(pdf.length);
  // PostgreSQL holds none of the bytes.
  expect((await db.query('select count(*)::int n from blobs')).rows[0].n).toBe(0);

  expect((await api.request('DELETE', `/v1/extractions/${res.body.data.id}`)).status).toBe(200);
  expect((await objects()).map((o) => o.Key)).not.toContain(`uploads/${rows[0].file_ref}`);
});

it('answers 503 UNAVAILABLE while the store is down, and keeps nothing', async () => {
  const before = (await db.query('select count(*)::int n from extractions')).rows[0].n;
  await s3.close();
  try {
    const res = await upload(await textPdf(['Total due 1.00 EUR']));
    expect(res.status, res.text).toBe(503);
    expect(res.body.code).toBe('UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBeTruthy();
  } finally {
    await startS3(port);
  }
  expect((await db.query('select count(*)::int n from extractions')).rows[0].n).toBe(before);
  // And once it is back, the same upload goes through.
  const again = await upload(await textPdf(['Total due 2.00 EUR']));
  expect(again.status, again.text).toBe(200);
  await waitFor(async () => (await objects()).length > 0);
});
