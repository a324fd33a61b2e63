import type { BlobStore } from './store.ts';

/**
 * The whole blob in one buffer, for consumers that need it whole (pdf.js, sharp). Refuses more
 * than `maxBytes`, so a reference never makes a reader allocate beyond its own limit.
 */
export async function readAll(store: BlobStore, ref: string, maxBytes: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of store.get(ref)) {
    size += piece.length;
    if (size > maxBytes) throw new RangeError(`stored file is larger than ${maxBytes} bytes`);
    pieces.push(piece);
  }
  return Buffer.concat(pieces, size);
}
