export { BlobNotFoundError, type BlobStore, type DbExecutor, type StoredBlob } from './store.ts';
export { createPostgresBlobStore, CHUNK_BYTES } from './postgres-store.ts';
export { readAll } from './read-all.ts';
