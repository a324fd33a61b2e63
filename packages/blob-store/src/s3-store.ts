import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { NETWORK_ERROR_CODES } from '@xt/runtime';
import { BlobNotFoundError, type BlobStore, type StoredBlob } from './store.ts';

export interface S3StoreOptions {
  bucket: string;
  /** Keys start with it, so one bucket can hold other things (and other deployments). */
  prefix?: string;
  /** An S3-compatible server (MinIO, …); unset: AWS. */
  endpoint?: string;
  region?: string;
  /** `bucket` in the path instead of the host name, as most S3-compatible servers want. */
  forcePathStyle?: boolean;
  /** Explicit credentials; unset: the SDK's standard chain (environment, profile, role). */
  credentials?: S3ClientConfig['credentials'];
}

/** Multipart part size: S3's minimum, so an upload holds at most a few parts in memory. */
const PART_BYTES = 5 * 1024 * 1024;
/** DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;

/** Counts what passes through, so the stored size is known without a HEAD afterwards. */
async function* counted(body: AsyncIterable<Uint8Array>, total: { bytes: number }) {
  for await (const piece of body) {
    total.bytes += piece.byteLength;
    yield piece;
  }
}

/**
 * Uploaded files in an S3-compatible object store. Objects cannot join the database's
 * transaction: a put lands before the row commits (a failed commit leaves an object no row
 * references, which the orphan sweep removes), and callers delete objects only after the rows
 * that referenced them are gone (`transactional: false`), so a row never points at missing
 * bytes.
 */
export function createS3BlobStore(options: S3StoreOptions): BlobStore & { client: S3Client } {
  const client = new S3Client({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    region: options.region ?? 'us-east-1',
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // The queue retries the work; a request should not wait through many SDK retries.
    maxAttempts: 2,
  });
  const prefix = options.prefix ?? 'uploads/';
  const key = (ref: string) => `${prefix}${ref}`;

  return {
    client,
    transactional: false,

    async put(_tx, body): Promise<StoredBlob> {
      const ref = randomUUID();
      const total = { bytes: 0 };
      // Streamed as a multipart upload, a part at a time, never the whole file in memory.
      const upload = new Upload({
        client,
        params: {
          Bucket: options.bucket,
          Key: key(ref),
          Body: Readable.from(counted(body, total)),
        },
        partSize: PART_BYTES,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
      return { ref, size: total.bytes };
    },

    async *get(ref: string): AsyncIterable<Buffer> {
      let body: AsyncIterable<Uint8Array>;
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: key(ref) }),
        );
        body = answer.Body as AsyncIterable<Uint8Array>;
      } catch (err) {
        if (err instanceof NoSuchKey) throw new BlobNotFoundError(ref);
        throw err;
      }
      for await (const piece of body) yield Buffer.from(piece);
    },

    async copy(_tx, from): Promise<string> {
      const ref = randomUUID();
      try {
        // Server-side: the bytes stay in the bucket. Previews and cells are far below the
        // 5 GiB a single CopyObject takes.
        await client.send(
          new CopyObjectCommand({
            Bucket: options.bucket,
            Key: key(ref),
            CopySource: encodeURI(`${options.bucket}/${key(from)}`),
          }),
        );
        return ref;
      } catch (err) {
        if (isMissing(err)) throw new BlobNotFoundError(from);
        throw err;
      }
    },

    async delete(_tx, refs): Promise<void> {
      for (let i = 0; i < refs.length; i += DELETE_BATCH) {
        const batch = refs.slice(i, i + DELETE_BATCH);
        const answer = await client.send(
          new DeleteObjectsCommand({
            Bucket: options.bucket,
            Delete: { Objects: batch.map((ref) => ({ Key: key(ref) })), Quiet: true },
          }),
        );
        const failed = answer.Errors?.filter((e) => e.Code !== 'NoSuchKey') ?? [];
        if (failed.length > 0)
          throw new Error(`the object store kept ${failed.length} objects: ${failed[0]?.Code}`);
      }
    },

    async listCreatedBefore(before, { limit, after }): Promise<string[]> {
      // The bucket lists by key, which is prefix + ref: reference order, as the interface asks.
      const refs: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: options.bucket,
            Prefix: prefix,
            ...(token ? { ContinuationToken: token } : after ? { StartAfter: key(after) } : {}),
            MaxKeys: 1000,
          }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key || !object.LastModified || object.LastModified >= before) continue;
          refs.push(object.Key.slice(prefix.length));
          if (refs.length === limit) return refs;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return refs;
    },
  };
}

/** A missing source object, as CopyObject reports it (it has no typed error for it). */
function isMissing(err: unknown): boolean {
  if (err instanceof NoSuchKey) return true;
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
  );
}

/**
 * True when the store could not be reached or answered that it is unwell (network errors,
 * throttling, 5xx): the request may be answered 503 and the work retried, nothing is lost.
 */
export function isObjectStoreUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof S3ServiceException) {
      const status = current.$metadata.httpStatusCode ?? 0;
      return status >= 500 || status === 429 || current.$retryable !== undefined;
    }
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
    if (name === 'TimeoutError' || name === 'AbortError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
