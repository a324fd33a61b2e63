export { BlobNotFoundError, type BlobStore, type DbExecutor, type StoredBlob } from './store.ts';
export { createPostgresBlobStore, CHUNK_BYTES } from './postgres-store.ts';
export { readAll } from './read-all.ts';
export { createS3BlobStore, isObjectStoreUnavailable, type S3StoreOptions } from './s3-store.ts';
export { createBlobStore, type BlobStoreConfig } from './from-config.ts';
