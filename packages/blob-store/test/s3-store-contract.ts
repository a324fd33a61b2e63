import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { readAll } from '../src/read-all.ts';
import {
  createS3BlobStore,
  isObjectStoreUnavailable,
  type S3StoreOptions,
} from '../src/s3-store.ts';
import { BlobNotFoundError } from '../src/store.ts';
import type { Db } from '@xt/db';

const noTx = {} as Db;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A file as an upload arrives: many small pieces. */
function pieces(bytes: Buffer, size = 64 * 1024): AsyncIterable<Uint8Array> {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

/**
 * What every S3-compatible server must do for the store, as one suite: `options()` gives the
 * connection, `stop()` (where the server can be stopped and brought back at the same address)
 * takes it away and returns how to bring it back.
 */
export function describeS3Store(
  name: string,
  options: () => S3StoreOptions,
  stop?: () => Promise<() => Promise<void>>,
): void {
  describe(`the S3 store on ${name}`, () => {
    const store = () => createS3BlobStore({ ...options(), prefix: 'uploads/' });

    it('streams a multipart upload in and reads it back whole', async () => {
      const bytes = randomBytes(12 * 1024 * 1024 + 123);
      const s = store();
      const stored = await s.put(noTx, pieces(bytes));
      expect(stored.size).toBe(bytes.length);
      expect(sha(await readAll(s, stored.ref, bytes.length))).toBe(sha(bytes));
    });

    it('tells a missing object apart, and deletes idempotently', async () => {
      const s = store();
      const stored = await s.put(noTx, pieces(Buffer.from('hello')));
      await s.delete(noTx, [stored.ref, '00000000-0000-4000-8000-000000000000']);
      await expect(readAll(s, stored.ref, 100)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('copies an object under a key of its own that outlives the original', async () => {
      const s = store();
      const stored = await s.put(noTx, pieces(Buffer.from('a page preview')));
      const copy = await s.copy(noTx, stored.ref);
      expect(copy).not.toBe(stored.ref);
      await s.delete(noTx, [stored.ref]);
      expect((await readAll(s, copy, 100)).toString()).toBe('a page preview');
      await expect(s.copy(noTx, stored.ref)).rejects.toBeInstanceOf(BlobNotFoundError);
      await s.delete(noTx, [copy]);
    });

    it('pages through its own prefix, oldest-agnostic, in reference order', async () => {
      const s = store();
      const refs: string[] = [];
      for (let i = 0; i < 5; i++) refs.push((await s.put(noTx, pieces(Buffer.from(`f${i}`)))).ref);
      // Another application's object in the same bucket is never listed (or swept).
      await s.client.send(
        new PutObjectCommand({ Bucket: options().bucket, Key: 'elsewhere/x', Body: 'x' }),
      );
      const future = new Date(Date.now() + 60_000);
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await s.listCreatedBefore(future, { limit: 2, ...(after ? { after } : {}) });
        if (page.length === 0) break;
        seen.push(...page);
        after = page.at(-1);
      }
      expect(seen).toEqual([...seen].sort());
      expect(seen).toEqual(expect.arrayContaining(refs));
      expect(seen.every((r) => /^[0-9a-f-]{36}$/.test(r))).toBe(true);
      expect(await s.listCreatedBefore(new Date(Date.now() - 3_600_000), { limit: 10 })).toEqual(
        [],
      );
      await s.delete(noTx, seen);
    });

    it.runIf(stop)('reports an outage as one, not as a missing object', async () => {
      const s = store();
      const stored = await s.put(noTx, pieces(Buffer.from('kept')));
      const restart = await stop!();
      try {
        const put = await s.put(noTx, pieces(Buffer.from('x'))).catch((e: unknown) => e);
        expect(isObjectStoreUnavailable(put)).toBe(true);
        const read = await readAll(s, stored.ref, 100).catch((e: unknown) => e);
        expect(read).not.toBeInstanceOf(BlobNotFoundError);
        expect(isObjectStoreUnavailable(read)).toBe(true);
      } finally {
        await restart();
      }
      expect((await readAll(s, stored.ref, 100)).toString()).toBe('kept');
    });
  });
}
