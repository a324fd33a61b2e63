/**
 * A split bundle's page thumbnails (docs/split.md) against a real prep pool and the blob store in
 * PostgreSQL: one small JPEG per page, named by page as the review previews are, drawn a few
 * pages per task; a bundle that cannot be drawn costs the thumbnails, never the split.
 */
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresBlobStore, readAll, type BlobStore } from '@xt/blob-store';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { corruptPdf, multiPagePdf } from '@xt/testkit/fixtures';
import { createPrepPool, type PrepPool, type PreviewTask } from '@xt/sources';
import { BUNDLE_PREVIEW_WIDTH, storeBundlePreviews } from './bundle.ts';
import type { PagePreviewDeps } from './index.ts';

let database: TestDatabase;
let handle: DbHandle;
let store: BlobStore;
let pool: PrepPool;
let deps: PagePreviewDeps;
const warnings: string[] = [];
const tasks: PreviewTask[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2 });
  store = createPostgresBlobStore(handle.db);
  pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
  deps = {
    db: handle.db,
    store,
    render: (task) => {
      tasks.push(task);
      return pool.runPrep(task);
    },
    maxImagePixels: 50_000_000,
    logger,
  };
});

afterAll(async () => {
  await pool?.close();
  await handle?.close();
  await database?.drop();
});

it('stores a thumbnail of every page, by page, a few pages per drawing', async () => {
  const pdf = await multiPagePdf(23);
  tasks.length = 0;
  const images = await storeBundlePreviews(deps, { drawAs: 'pdf', bytes: new Uint8Array(pdf) }, 23);
  expect(Object.keys(images ?? {}).map(Number)).toEqual(
    Array.from({ length: 23 }, (_, i) => i + 1),
  );
  const meta = await sharp(await readAll(store, images!['23']!, 1_000_000)).metadata();
  expect(meta).toMatchObject({ format: 'jpeg', width: BUNDLE_PREVIEW_WIDTH });
  // Two drawings (20 pages, then 3), not one holding the thread for the whole bundle.
  expect(tasks.map((t) => t.pages.length)).toEqual([20, 3]);
});

it('stores nothing and says so when the bundle cannot be drawn', async () => {
  warnings.length = 0;
  const images = await storeBundlePreviews(
    deps,
    { drawAs: 'pdf', bytes: new Uint8Array(corruptPdf()) },
    3,
  );
  expect(images).toBeNull();
  expect(warnings.join('\n')).toContain('bundle page previews not stored');
});
