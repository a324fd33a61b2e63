/**
 * The object store against a real S3-protocol server (s3rver, started here on a free port):
 * multipart uploads streamed in, streamed reads, deletes, listing by prefix a page at a time,
 * and an outage told apart from a missing object. MinIO through testcontainers runs the same
 * checks when a Docker engine answers (s3-store-minio.integration.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import S3rver from 's3rver';
import { describeS3Store } from '../test/s3-store-contract.ts';

let server: S3rver;
let dir: string;
let endpoint: string;

async function start(port = 0): Promise<void> {
  server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'xt', configs: [] }],
  });
  const address = (await server.run()) as { port: number };
  endpoint = `http://127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'xt-s3rver-'));
  await start();
});

afterAll(async () => {
  await server?.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describeS3Store(
  's3rver',
  () => ({
    bucket: 'xt',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  }),
  async () => {
    await server.close();
    return async () => start(Number(new URL(endpoint).port));
  },
);

it('is a real server on a free port', () => {
  expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});
