/**
 * Uploads never sit in the API's memory: twenty 50 MiB PDFs sent at once, streamed from disk, to
 * a real API process. Every one is accepted and stored whole, and the process's peak resident
 * memory (the kernel's VmHWM) stays below what holding them would take (1,000 MiB for the files
 * alone). The throughput is printed for the record; benchmarks judge speed, not this test.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { openTestPool } from '@xt/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiReplica, startTestApi, type TestApi } from '../../test/start-api.ts';
import { peakRssMiB } from '../../test/memory.ts';

const MiB = 1024 * 1024;
const FILE_BYTES = 50 * MiB;
const UPLOADS = 20;
// Generous (streaming measures ~70 MiB above an idle ~300 MiB), yet below the 1,000 MiB of
// files plus the idle process that holding the uploads in memory would take.
const PEAK_BOUND_MIB = 1024;

let api: TestApi;
let replica: Awaited<ReturnType<typeof startApiReplica>>;
let db: pg.Pool;
let dir: string;
let pdfPath: string;
let pdfSha256: string;

/** A file that is a PDF by its bytes (all the API checks), `FILE_BYTES` long, written in pieces. */
async function writeBigPdf(file: string): Promise<string> {
  const head = Buffer.from(
    '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Length 0 >>\nstream\n',
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< >>\n%%EOF\n', 'latin1');
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  const write = (piece: Buffer) => {
    hash.update(piece);
    return out.write(piece)
      ? Promise.resolve()
      : new Promise<void>((r) => out.once('drain', () => r()));
  };
  await write(head);
  let left = FILE_BYTES - head.length - tail.length;
  while (left > 0) {
    const piece = randomBytes(Math.min(left, MiB));
    await write(piece);
    left -= piece.length;
  }
  await write(tail);
  out.end();
  await finished(out);
  return hash.digest('hex');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-upload-memory-'));
  pdfPath = path.join(dir, 'big.pdf');
  pdfSha256 = await writeBigPdf(pdfPath);
  api = await startTestApi();
  replica = await startApiReplica(api, {
    UPLOAD_TMP_DIR: path.join(dir, 'tmp'),
    RATE_LIMIT_MAX: '1000',
  });
  db = openTestPool(api.database.url);
}, 120_000);

afterAll(async () => {
  await replica?.close();
  await db?.end();
  await api?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('twenty 50 MiB uploads at once', () => {
  it('accepts and stores every one while the API process stays small', async () => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Big', structure: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const schemaId = schema.body.data.id as string;
    const pid = replica.process.child.pid!;
    const idleMiB = await peakRssMiB(pid);

    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: UPLOADS }, async (_, i) => {
        const body = new FormData();
        body.set('schema_id', schemaId);
        body.set('type', 'pdf');
        // A Blob backed by the file: fetch streams it from disk as the request goes out.
        body.set('source', await openAsBlob(pdfPath, { type: 'application/pdf' }), `big-${i}.pdf`);
        const res = await fetch(`${replica.url}/v1/extractions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${api.keys.write}`, prefer: 'respond-async' },
          body,
        });
        return { status: res.status, text: await res.text() };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const peakMiB = await peakRssMiB(pid);
    console.log(
      `${UPLOADS} × ${FILE_BYTES / MiB} MiB uploads: ${((UPLOADS * FILE_BYTES) / 1e6 / seconds).toFixed(1)} MB/s ` +
        `over ${seconds.toFixed(1)} s; API peak RSS (VmHWM) ${peakMiB.toFixed(0)} MiB, ${idleMiB.toFixed(0)} MiB before`,
    );

    for (const a of answers) expect(a.status, a.text).toBe(202);
    const rows = await db.query<{ file: { size: number; sha256: string }; size: string }>(
      'select e.file, b.size from extractions e join blobs b on b.ref = e.file_ref',
    );
    expect(rows.rows).toHaveLength(UPLOADS);
    for (const row of rows.rows) {
      expect(row.file).toMatchObject({ size: FILE_BYTES, sha256: pdfSha256 });
      expect(Number(row.size)).toBe(FILE_BYTES);
    }
    expect(peakMiB).toBeLessThan(PEAK_BOUND_MIB);
    // Twenty files go through one database on a shared machine: minutes, not seconds.
  }, 900_000);
});
