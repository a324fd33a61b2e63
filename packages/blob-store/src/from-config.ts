import type { Db } from '@xt/db';
import { createPostgresBlobStore } from './postgres-store.ts';
import { createS3BlobStore } from './s3-store.ts';
import type { BlobStore } from './store.ts';

/** The settings that choose and reach the store (README's configuration table). */
export interface BlobStoreConfig {
  BLOB_STORE: 'postgres' | 's3';
  S3_BUCKET?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_REGION?: string | undefined;
  S3_FORCE_PATH_STYLE: boolean;
  S3_PREFIX: string;
}

/** The store the configuration names; credentials for S3 come from the SDK's standard chain. */
export function createBlobStore(config: BlobStoreConfig, db: Db): BlobStore {
  if (config.BLOB_STORE === 'postgres') return createPostgresBlobStore(db);
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET must be set when BLOB_STORE is s3');
  return createS3BlobStore({
    bucket: config.S3_BUCKET,
    prefix: config.S3_PREFIX,
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    ...(config.S3_REGION ? { region: config.S3_REGION } : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}
