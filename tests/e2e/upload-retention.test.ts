/**
 * Retention through the whole service: a real worker process sweeps on its own schedule, and
 * once an uploaded file's extraction has been final for `UPLOAD_RETENTION_HOURS` (here 0) its
 * bytes are gone while both records keep the result, the metadata and the file description,
 * which then says when the bytes were removed.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { describe, expect } from 'vitest';
import { openTestPool, waitFor } from '@xt/testkit';
import { stackTest } from '../support/stack.ts';

const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '60' },
  worker: { UPLOAD_RETENTION_HOURS: '0', UPLOAD_SWEEP_INTERVAL_MS: '300' },
  openApi: false,
});

let db: pg.Pool;

test.beforeAll(({ api }) => {
  db = openTestPool(api.database.url);
}, 120_000);

test.afterAll(() => db?.end());

describe('upload retention', () => {
  test('removes the bytes of a finished extraction and keeps its record, showing the file as removed', async ({
    api,
    worker,
  }) => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Note', structure: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const text = 'Total due: 12.50 EUR';
    const body = new FormData();
    body.set('schema_id', schema.body.data.id);
    body.set('type', 'text');
    body.set('metadata', '{"batch":"b-7"}');
    body.set('source', new Blob([text]), 'note.txt');
    const created = await api.request('POST', '/v1/extractions', { body });
    expect(created.status, created.text).toBe(200);
    const id = created.body.data.id as string;

    const single = await waitFor(async () => {
      const got = await api.request('GET', `/v1/extractions/${id}`);
      return got.body.data.source.file.removedAt ? got.body.data : undefined;
    }, 30_000);
    expect(single).toMatchObject({
      status: 'completed',
      charged: true,
      result: created.body.data.output,
      metadata: { batch: 'b-7' },
      source: {
        type: 'text',
        content: 'note.txt',
        file: {
          name: 'note.txt',
          size: Buffer.byteLength(text),
          contentType: 'text/plain',
          sha256: createHash('sha256').update(text).digest('hex'),
        },
      },
    });
    expect(Date.parse(single.source.file.removedAt)).toBeGreaterThanOrEqual(
      Date.parse(single.createdAt),
    );
    const list = await api.request('GET', '/v1/extractions');
    const listed = list.body.data.data.find((r: { id: string }) => r.id === id);
    expect(listed.input.file).toEqual(single.source.file);

    const left = await db.query(
      'select (select count(*) from blobs)::int as blobs, (select count(*) from blob_chunks)::int as chunks, (select file_ref from extractions where id = $1) as ref',
      [id],
    );
    expect(left.rows[0]).toEqual({ blobs: 0, chunks: 0, ref: null });
    // Log lines reach the output in batches, at the latest a second after they are written.
    await waitFor(() => worker.output().includes('uploaded files removed'), 10_000);
    // A worker process starts and completes a job before the sweep can find it.
  }, 120_000);
});
