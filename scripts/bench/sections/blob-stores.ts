/**
 * 12. Uploads kept in S3 (`BLOB_STORE=s3`, against s3rver on this machine) next to the default
 * PostgreSQL store: two API processes on the same database, alike but for the store,
 * alternating within each repetition.
 *
 * - Ingestion: §5's multipart PDF uploads with `Prefer: respond-async`, four at a time, MB/s
 *   until every answer is in, and the API's peak RSS meanwhile.
 * - The worker's read: the uploads just stored, streamed back four at a time through the same
 *   `createBlobStore(config).get(ref)` the worker's source preparer reads with, configured as
 *   the worker would be. Chosen over the worker's `fetch` stage metric because that stage's
 *   duration also holds queueing behind PDF preparation of the other jobs, and the worker would
 *   have to run during ingestion, whose CPU the two stores would then share unevenly.
 *
 * The stack's worker is stopped for the section (nothing consumes the uploads, so ingestion is
 * measured alone) and started again after; each repetition's uploads are deleted through the
 * API that made them, so none is left for the reconciler to enqueue.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlobStore, type BlobStoreConfig } from '@xt/blob-store';
import { createDb } from '@xt/db';
import type { BenchStack } from '../lib/bench-stack.ts';
import { closedLoop, send } from '../lib/client.ts';
import type { Plan } from '../lib/plan.ts';
import { peakRssMiB, resetPeak } from '../lib/proc.ts';
import type { Results } from '../lib/report.ts';
import { startApi, startNode, type Proc } from '../lib/stack.ts';
import { bigPdf, firstSchemaId } from './uploads.ts';

const BUCKET = 'xt-bench-uploads';
// s3rver's fixed credentials; the service takes them from the SDK's standard chain.
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

type Store = 'postgres' | 's3';

export async function measureBlobStores(
  stack: BenchStack,
  plan: Plan,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  const file = await bigPdf(plan.blobStores.megabytes);
  const mb = file.length / 1e6;
  const count = plan.blobStores.files;
  const dir = mkdtempSync(join(tmpdir(), 'xt-bench-s3rver-'));
  const saved = { ...process.env };
  let s3rver: Proc | undefined;
  let s3Api: (Proc & { url: string }) | undefined;
  const db = createDb(stack.service.databaseUrl);
  await stack.removeWorker();
  try {
    s3rver = await startNode(stack.workdir, 's3rver', 'scripts/bench/lib/s3rver-cli.ts', {
      args: ['--dir', dir, '--bucket', BUCKET],
      readyText: 'S3_ENDPOINT=',
    });
    const endpoint = /S3_ENDPOINT=(\S+)/.exec(readFileSync(s3rver.logFile, 'utf8'))![1]!;
    const s3Config: BlobStoreConfig = {
      BLOB_STORE: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: true,
      S3_PREFIX: 'uploads/',
    };
    s3Api = await startApi(
      stack.workdir,
      'api-s3',
      stack.service,
      {
        BLOB_STORE: 's3',
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: endpoint,
        S3_REGION: 'us-east-1',
        S3_FORCE_PATH_STYLE: 'true',
        ...CREDENTIALS,
      },
      stack.options.nodeArgs,
    );
    // The readers below resolve credentials from this process's environment, as the worker does.
    Object.assign(process.env, CREDENTIALS);
    const apis = {
      postgres: { url: stack.apis[0]!.url, pid: stack.apis[0]!.pid },
      s3: { url: s3Api.url, pid: s3Api.pid },
    };
    const readers = {
      postgres: createBlobStore({ ...s3Config, BLOB_STORE: 'postgres' }, db.db),
      s3: createBlobStore(s3Config, db.db),
    };
    const schemaId = await firstSchemaId(stack);
    const headers = stack.direct.headers;
    const figures: Record<string, number[]> = {};
    const push = (key: string, value: number) => (figures[key] ??= []).push(value);

    for (let rep = 1; rep <= plan.reps; rep++) {
      const order: Store[] = rep % 2 ? ['postgres', 's3'] : ['s3', 'postgres'];
      for (const store of order) {
        const api = apis[store];
        resetPeak(api.pid);
        log(`§12 rep ${rep}: ${store} uploads, ${count} × ${mb.toFixed(1)} MB`);
        let t0 = performance.now();
        const answers = await closedLoop(
          4,
          (sent) => sent >= count,
          () => {
            const body = new FormData();
            body.set('schema_id', schemaId);
            body.set('type', 'pdf');
            body.set('source', new Blob([file], { type: 'application/pdf' }), 'bench.pdf');
            return send(`${api.url}/v1/extractions`, {
              method: 'POST',
              headers: { authorization: headers.authorization!, prefer: 'respond-async' },
              body,
            });
          },
        );
        const seconds = (performance.now() - t0) / 1000;
        const ok = answers.filter((a) => a.status === 202);
        if (ok.length < answers.length) {
          const bad = answers.find((a) => a.status !== 202)!;
          log(`  ${answers.length - ok.length} answered ${bad.status}: ${bad.body.slice(0, 200)}`);
        }
        push(`${store}:ingest`, (ok.length * mb) / seconds);
        push(`${store}:rss`, peakRssMiB(api.pid));

        const ids = ok.map((a) => (JSON.parse(a.body) as { data: { id: string } }).data.id);
        const { rows } = await db.pool.query<{ file_ref: string }>(
          'select file_ref from extractions where id = any($1) and file_ref is not null',
          [ids],
        );
        const refs = rows.map((r) => r.file_ref);
        let bytes = 0;
        t0 = performance.now();
        let next = 0;
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (next < refs.length) {
              for await (const chunk of readers[store].get(refs[next++]!)) bytes += chunk.length;
            }
          }),
        );
        push(`${store}:read`, bytes / 1e6 / ((performance.now() - t0) / 1000));
        log(`  read back ${refs.length} files, ${(bytes / 1e6).toFixed(0)} MB`);

        for (const id of ids) {
          const gone = await send(`${api.url}/v1/extractions/${id}`, {
            method: 'DELETE',
            headers,
          });
          if (gone.status !== 200) log(`  delete ${id} answered ${gone.status}`);
        }
      }
    }

    const row = (measure: string, key: string, unit: string, decimals?: number) =>
      results.add({
        section: '12',
        measure,
        unit,
        ...(decimals === undefined ? {} : { decimals }),
        service: figures[`s3:${key}`] ?? [],
        baseline: figures[`postgres:${key}`] ?? [],
        baselineName: '(PostgreSQL store)',
      });
    row(
      `Upload ingestion into S3 (s3rver), ${mb.toFixed(0)} MB PDFs, 4 at a time`,
      'ingest',
      'MB/s',
    );
    row('API peak RSS during uploads into S3', 'rss', 'MiB', 0);
    row(`Worker read of stored uploads from S3 (s3rver), 4 at a time`, 'read', 'MB/s');
  } finally {
    for (const key of Object.keys(CREDENTIALS)) {
      if (saved[key] === undefined) Reflect.deleteProperty(process.env, key);
      else process.env[key] = saved[key];
    }
    await s3Api?.stop();
    await s3rver?.stop();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    await stack.addWorker();
  }
}
