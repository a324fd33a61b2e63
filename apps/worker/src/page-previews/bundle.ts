import { Readable } from 'node:stream';
import { previewKey } from '@xt/contract';
import { recordDrawnEvidence } from '@xt/extractions';
import { errorSummary } from '@xt/runtime';
import type { PageBytes } from '@xt/sources';
import type { PagePreviewDeps } from './index.ts';

/**
 * How many of a split bundle's pages get a thumbnail (docs/split.md): the first ones. A bundle
 * of a thousand pages would otherwise cost a thousand drawings and blobs for pictures nobody
 * scrolls to; the dashboard draws the rest as numbered tiles.
 */
export const BUNDLE_PREVIEW_PAGES = 200;
/** A tile is about 100 CSS pixels wide: twice that, for sharp screens, and no more. */
export const BUNDLE_PREVIEW_WIDTH = 240;
/** Pages drawn per task, so that a long bundle holds a prep thread only briefly at a time. */
const PAGES_PER_TASK = 20;

/**
 * Stores a small JPEG of each of a bundle's first pages for the dashboard's bundle view, and
 * returns them as `page_images` for the parent (`{ "<page>": "<blob ref>" }`, the review
 * previews' keys, so the same route serves them), or null when none was drawn.
 *
 * Best effort, like the cited pages' previews: a failure is logged and the view draws numbered
 * tiles instead. Blobs whose row is never written are left to the upload sweep.
 */
export async function storeBundlePreviews(
  deps: PagePreviewDeps,
  file: PageBytes,
  pageCount: number,
  signal?: AbortSignal,
): Promise<Record<string, string> | null> {
  const images: Record<string, string> = {};
  const last = Math.min(pageCount, file.drawAs === 'image' ? 1 : BUNDLE_PREVIEW_PAGES);
  for (let first = 1; first <= last && !signal?.aborted; first += PAGES_PER_TASK) {
    const pages = Array.from(
      { length: Math.min(PAGES_PER_TASK, last - first + 1) },
      (_, i) => first + i,
    );
    try {
      const previews = await deps.render({
        kind: 'previews',
        type: file.drawAs,
        // The pool copies what it is given to its process: the same bytes serve every task.
        bytes: file.bytes,
        pages,
        maxImagePixels: deps.maxImagePixels,
        width: BUNDLE_PREVIEW_WIDTH,
      });
      for (const preview of previews) {
        const stored = await deps.store.put(deps.db, Readable.from([Buffer.from(preview.jpeg)]));
        images[previewKey(preview.page)] = stored.ref;
      }
    } catch (err) {
      deps.logger.warn({ error: errorSummary(err), pages }, 'bundle page previews not stored');
      break;
    }
  }
  return Object.keys(images).length > 0 ? images : null;
}

/** What the split step calls once a bundle's children are on their way. */
export type BundleThumbnails = (
  parentId: string,
  file: PageBytes,
  pageCount: number,
  signal: AbortSignal,
) => Promise<void>;

/**
 * Draws a bundle's thumbnails and records them on the parent, unless it has some already or is
 * gone (its blobs are then the orphan sweep's). The parent keeps them when it completes
 * (split-run.ts passes them on). Never throws: the split's outcome does not depend on them.
 */
export function bundleThumbnails(deps: PagePreviewDeps): BundleThumbnails {
  return async (parentId, file, pageCount, signal) => {
    try {
      const images = await storeBundlePreviews(deps, file, pageCount, signal);
      if (images) await recordDrawnEvidence(deps.db, parentId, images);
    } catch (err) {
      deps.logger.warn({ error: errorSummary(err) }, 'bundle page previews not recorded');
    }
  };
}
