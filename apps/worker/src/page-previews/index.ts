import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { BlobStore } from '@xt/blob-store';
import type { Citations, PreparedSource } from '@xt/contract';
import type { Db } from '@xt/db';
import { errorSummary } from '@xt/runtime';
import { sourceBytesOf, type PageBytes, type PagePreview, type PreviewTask } from '@xt/sources';

export interface PagePreviewDeps {
  db: Db;
  store: BlobStore;
  /** Draws the previews off the main loop (the prep pool). */
  render: (task: PreviewTask) => Promise<PagePreview[]>;
  maxImagePixels: number;
  logger: Logger;
}

/** 1-based pages on which some value was found, ascending. */
export function citedPages(citations: Citations | null | undefined): number[] {
  const pages = new Set<number>();
  for (const c of Object.values(citations ?? {}))
    if (c.grounded && c.page !== null && c.boxes.length > 0) pages.add(c.page);
  return [...pages].sort((a, b) => a - b);
}

/**
 * Stores a JPEG preview of every page of a source with pages (its PDF, converted PDF or image,
 * kept by the preparation) that carries a citation, for the
 * dashboard's review view (docs/citations.md#review-view), and returns `page_images` for the
 * completion: `{ "<page>": "<blob ref>" }`, or null when there is nothing to show.
 *
 * Best effort: a preview is a convenience, so failing to draw or store one never fails the
 * extraction; the view then draws the boxes on a blank page. Previews whose completion is never
 * written (a deleted extraction, a lost race) are left to the upload sweep, which removes bytes
 * no extraction references.
 */
export async function storePagePreviews(
  deps: PagePreviewDeps,
  input: { file: PageBytes | undefined; citations: Citations | null },
): Promise<Record<string, string> | null> {
  const pages = citedPages(input.citations);
  if (pages.length === 0 || !input.file) return null;
  try {
    const previews = await deps.render({
      kind: 'previews',
      type: input.file.drawAs,
      bytes: input.file.bytes,
      pages,
      maxImagePixels: deps.maxImagePixels,
    });
    const images: Record<string, string> = {};
    for (const preview of previews) {
      const stored = await deps.store.put(deps.db, Readable.from([Buffer.from(preview.jpeg)]));
      images[String(preview.page)] = stored.ref;
    }
    return Object.keys(images).length > 0 ? images : null;
  } catch (err) {
    deps.logger.warn({ error: errorSummary(err), pages }, 'page previews not stored');
    return null;
  }
}

/** What the processor calls once an answer is grounded: `page_images` for the completion. */
export type PagePreviews = (
  source: PreparedSource,
  citations: Citations | null,
) => Promise<Record<string, string> | null>;

export function pagePreviews(deps: PagePreviewDeps): PagePreviews {
  return (source, citations) => storePagePreviews(deps, { file: sourceBytesOf(source), citations });
}
