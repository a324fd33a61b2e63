import { traitsOf, type PreparedSource, type SourceType } from '@xt/contract';
import {
  keepPartBytes,
  keepSourceBytes,
  partBytesOf,
  sourceBytesOf,
  type PageBytes,
} from './previews/source-bytes.ts';

/** A file's content as a stored preparation is found by: what it was read as, and its bytes. */
export interface ContentId {
  type: SourceType;
  /** SHA-256 of the bytes, hex */
  sha256: string;
  contentType: string | null;
  /**
   * false: read for a model that takes no images (scans as OCR text), which a store keys apart.
   * Absent for the usual reading, so that the keys stored before it existed still match.
   */
  images?: false;
}

/** `content` as read with `opts`: what the store must tell apart. */
export const contentReadWith = (content: ContentId, opts: { images?: boolean | undefined }) =>
  opts.images === false ? { ...content, images: false as const } : content;

/**
 * Whether a stored preparation is one a reading of `content` may serve: never page images to a
 * model that takes none, nor OCR text to one that reads the images better, even from a store
 * whose key leaves the reading out.
 */
const servesReading = (prepared: PreparedSource, content: ContentId) =>
  content.images === false
    ? prepared.parts.every((part) => part.kind !== 'image')
    : prepared.imagesAsText === undefined;

/**
 * Where earlier preparations of the same content are kept (docs/reuse.md#preparations): the
 * worker's, bound to one job's account and reading options, which decide the rest of the key.
 * Text in, text out: what a preparation becomes as text is this file's business.
 */
export interface PreparationStore {
  read(content: ContentId): Promise<string | undefined>;
  write(content: ContentId, serialized: string): Promise<void>;
}

interface StoredPages {
  drawAs: PageBytes['drawAs'];
  /** base64 */
  bytes: string;
}

interface Stored {
  v: 1;
  prepared: PreparedSource;
  /** the page bytes kept for previews (citations) */
  pages?: StoredPages;
  /** an email's attachments with pages, by part name, kept the same way */
  parts?: Record<string, StoredPages>;
}

const toStored = (pages: PageBytes): StoredPages => ({
  drawAs: pages.drawAs,
  bytes: Buffer.from(pages.bytes).toString('base64'),
});
const fromStored = (pages: StoredPages): PageBytes => ({
  drawAs: pages.drawAs,
  bytes: new Uint8Array(Buffer.from(pages.bytes, 'base64')),
});

/**
 * A preparation as text, with the page bytes kept beside it for previews; undefined when it
 * holds anything JSON would not give back as it is (binary parts, maps), which is then simply
 * not stored.
 */
export function serializePrepared(prepared: PreparedSource): string | undefined {
  const pages = sourceBytesOf(prepared);
  const parts = partBytesOf(prepared);
  const stored: Stored = {
    v: 1,
    prepared,
    ...(pages ? { pages: toStored(pages) } : {}),
    ...(parts
      ? { parts: Object.fromEntries([...parts].map(([name, p]) => [name, toStored(p)])) }
      : {}),
  };
  try {
    return JSON.stringify(stored, (_key, value: unknown) => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const proto = Object.getPrototypeOf(value) as unknown;
        if (proto !== Object.prototype && proto !== null) throw new NotPlainJson();
      }
      return value;
    });
  } catch (err) {
    if (err instanceof NotPlainJson) return undefined;
    throw err;
  }
}

class NotPlainJson extends Error {}

/** The preparation a serializePrepared text holds; undefined for text of another version. */
export function restorePrepared(text: string): PreparedSource | undefined {
  const stored = JSON.parse(text) as Partial<Stored>;
  if (stored.v !== 1 || !stored.prepared) return undefined;
  const { prepared, pages, parts } = stored;
  if (pages) keepSourceBytes(prepared, fromStored(pages));
  if (parts)
    keepPartBytes(
      prepared,
      new Map(Object.entries(parts).map(([name, p]) => [name, fromStored(p)])),
    );
  return prepared;
}

/**
 * The preparation of `content`: an earlier one from the store when there is one, else `produce`'s,
 * stored for next time. A kind cheaper to read than to look up (text) is not stored. The
 * store is an economy, never a dependency: when it fails, the source is prepared as usual.
 */
export async function withPreparations(
  store: PreparationStore | undefined,
  content: ContentId,
  produce: () => Promise<PreparedSource>,
): Promise<PreparedSource> {
  if (!store || traitsOf(content.type).readAgainNotStored) return produce();
  const earlier = await store.read(content).catch(() => undefined);
  const restored = earlier === undefined ? undefined : restorePrepared(earlier);
  if (restored && servesReading(restored, content)) return restored;
  const prepared = await produce();
  await keepPreparation(store, content, prepared);
  return prepared;
}

/**
 * Stores a preparation of `content` made without `withPreparations` (a converted document read
 * as its pages were counted), for next time; best effort, as there.
 */
export async function keepPreparation(
  store: PreparationStore | undefined,
  content: ContentId,
  prepared: PreparedSource,
): Promise<void> {
  if (!store || traitsOf(content.type).readAgainNotStored) return;
  const serialized = serializePrepared(prepared);
  if (serialized !== undefined) await store.write(content, serialized).catch(() => undefined);
}
