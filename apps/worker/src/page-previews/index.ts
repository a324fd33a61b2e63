import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { BlobStore } from '@xt/blob-store';
import { CELLS_KEY, previewKey, type Citations, type PreparedSource } from '@xt/contract';
import type { Db } from '@xt/db';
import { errorSummary } from '@xt/runtime';
import {
  documentPage,
  windowPage,
  partBytesOf,
  sourceBytesOf,
  type PageBytes,
  type PagePreview,
  type PreviewTask,
} from '@xt/sources';
import { sheetExcerpt } from './sheet-excerpt.ts';

export interface PagePreviewDeps {
  db: Db;
  store: BlobStore;
  /** Draws the previews off the main loop (the prep pool). */
  render: (task: PreviewTask) => Promise<PagePreview[]>;
  maxImagePixels: number;
  logger: Logger;
}

/**
 * 1-based pages on which some value was found, ascending: of the source itself, or with `part`
 * of that part of an email (a PDF attachment).
 */
export function citedPages(citations: Citations | null | undefined, part?: string): number[] {
  const pages = new Set<number>();
  for (const c of Object.values(citations ?? {}))
    if (c.grounded && c.page !== null && c.boxes.length > 0 && c.part === part) pages.add(c.page);
  return [...pages].sort((a, b) => a - b);
}

/** A file whose cited pages are drawn: the source's own, or one part of an email. */
interface Drawn {
  file: PageBytes;
  part?: string;
}

/**
 * Stores a JPEG preview of every page of a source with pages (its PDF, converted PDF or image,
 * kept by the preparation) that carries a citation, and of every page of an email's attachments
 * with pages that does, for the dashboard's review view (docs/citations.md#review-view), and
 * returns `page_images` for the completion: `{ "<page>": "<blob ref>" }` (`"<page>:<part>"` for
 * an attachment's page, see `previewKey`), or null when there is nothing to show.
 *
 * Best effort: a preview is a convenience, so failing to draw or store one never fails the
 * extraction; the view then draws the boxes on a blank page. Previews whose completion is never
 * written (a deleted extraction, a lost race) are left to the upload sweep, which removes bytes
 * no extraction references.
 */
export async function storePagePreviews(
  deps: PagePreviewDeps,
  input: {
    file: PageBytes | undefined;
    parts?: ReadonlyMap<string, PageBytes> | undefined;
    citations: Citations | null;
  },
): Promise<Record<string, string> | null> {
  const drawn: Drawn[] = [
    ...(input.file ? [{ file: input.file }] : []),
    ...[...(input.parts ?? [])].map(([part, file]) => ({ part, file })),
  ];
  const images: Record<string, string> = {};
  for (const { file, part } of drawn) {
    const pages = citedPages(input.citations, part);
    if (pages.length === 0) continue;
    // A page window's own PDF holds the document's pages under its own numbers.
    const { window } = file;
    const at = (page: number) => (window ? windowPage(window, page) : page);
    try {
      const previews = await deps.render({
        kind: 'previews',
        type: file.drawAs,
        bytes: file.bytes,
        pages: pages.map(at).filter((n) => n !== undefined),
        maxImagePixels: deps.maxImagePixels,
      });
      for (const preview of previews) {
        const stored = await deps.store.put(deps.db, Readable.from([Buffer.from(preview.jpeg)]));
        const page = window ? documentPage(window, preview.page) : preview.page;
        images[previewKey(page, part)] = stored.ref;
      }
    } catch (err) {
      deps.logger.warn({ error: errorSummary(err), pages, part }, 'page previews not stored');
    }
  }
  return Object.keys(images).length > 0 ? images : null;
}

/** What the processor calls once an answer is grounded: `page_images` for the completion. */
export type PagePreviews = (
  source: PreparedSource,
  citations: Citations | null,
) => Promise<Record<string, string> | null>;

export function pagePreviews(deps: PagePreviewDeps): PagePreviews {
  return async (source, citations) => {
    const images = await storePagePreviews(deps, {
      file: sourceBytesOf(source),
      parts: partBytesOf(source),
      citations,
    });
    const cells = await storeSheetExcerpt(deps, source, citations);
    return cells ? { ...images, [CELLS_KEY]: cells } : images;
  };
}

/**
 * Stores the cells around a spreadsheet's cited cells as JSON beside the page previews (the
 * review view shows a cited cell in its sheet, docs/citations.md#review-view), and returns its
 * blob reference; null when there is none. Best effort, like the previews: it goes with them,
 * at the retention sweep or with the extraction, since it is a copy of the source.
 */
async function storeSheetExcerpt(
  deps: PagePreviewDeps,
  source: PreparedSource,
  citations: Citations | null,
): Promise<string | null> {
  const excerpt = sheetExcerpt(source.grounding, citations);
  if (!excerpt) return null;
  try {
    const json = Buffer.from(JSON.stringify(excerpt), 'utf8');
    return (await deps.store.put(deps.db, Readable.from([json]))).ref;
  } catch (err) {
    deps.logger.warn({ error: errorSummary(err) }, 'cells around the cited cells not stored');
    return null;
  }
}
