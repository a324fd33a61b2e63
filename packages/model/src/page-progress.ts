import type { ContentPart } from '@xt/contract';

/** Pages finished and pages in all, as the records show them (docs/api.md#progress). */
export interface PageProgress {
  pagesDone: number;
  pagesTotal: number;
}

/** The pages (units) a source was read as: 0 for a source without any (typed text). */
export function countPages(parts: readonly ContentPart[]): number {
  const units = new Set<number>();
  for (const part of parts) if (part.unit !== undefined) units.add(part.unit);
  return units.size;
}

/**
 * Counts pages as the chunks that hold them finish: a page is done once every chunk holding a
 * part of it has answered (a page too long for one chunk is cut across two). Parts without a
 * page (a document's notes, say) are not counted, as `countPages` does not count them.
 */
export function pageTracker(chunks: readonly (readonly ContentPart[])[]): {
  finish(chunk: number): number;
} {
  const pending = new Map<number, number>();
  const unitsOf = chunks.map((parts) => {
    const units = new Set<number>();
    for (const part of parts) if (part.unit !== undefined) units.add(part.unit);
    for (const unit of units) pending.set(unit, (pending.get(unit) ?? 0) + 1);
    return units;
  });
  let done = 0;
  return {
    finish(chunk) {
      for (const unit of unitsOf[chunk] ?? []) {
        const left = (pending.get(unit) ?? 1) - 1;
        pending.set(unit, left);
        if (left === 0) done += 1;
      }
      unitsOf[chunk] = new Set();
      return done;
    },
  };
}
