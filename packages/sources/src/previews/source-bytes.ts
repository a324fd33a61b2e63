import type { PreparedSource } from '@xt/contract';
import type { WindowPages } from '../pdf/window-pages.ts';

/** A file whose pages can be drawn: the PDF (a document's converted one) or the image itself. */
export interface PageBytes {
  drawAs: 'pdf' | 'image';
  bytes: Uint8Array;
  /** A page window's own PDF: its pages are these pages of the document. */
  window?: WindowPages | undefined;
}

/*
 * The bytes of a source with pages, kept beside its prepared form while its job runs, so the
 * cited pages can be drawn once the answer is grounded. Preparation hands its own copy to a prep
 * thread (moved, not copied), and nothing else keeps a fetched file: a URL source could change
 * if fetched again. Held only when citations were asked for, and only as long as the prepared
 * source itself (a WeakMap, so the job's end frees them).
 */
const kept = new WeakMap<PreparedSource, PageBytes>();

export function keepSourceBytes<T extends PreparedSource>(source: T, pages: PageBytes): T {
  kept.set(source, pages);
  return source;
}

export function sourceBytesOf(source: PreparedSource): PageBytes | undefined {
  return kept.get(source);
}

/*
 * An email's parts with pages (its PDF and image attachments), by part name: each kept as its
 * own preparation kept it, so that the cited pages of each can be drawn the same way.
 */
const keptParts = new WeakMap<PreparedSource, ReadonlyMap<string, PageBytes>>();

export function keepPartBytes<T extends PreparedSource>(
  source: T,
  parts: ReadonlyMap<string, PageBytes>,
): T {
  if (parts.size > 0) keptParts.set(source, parts);
  return source;
}

export function partBytesOf(source: PreparedSource): ReadonlyMap<string, PageBytes> | undefined {
  return keptParts.get(source);
}
