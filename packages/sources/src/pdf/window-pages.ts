/**
 * A page window's own PDF, cut from a longer document (docs/scaling.md#one-large-document):
 * the document's pages `first` to `last` (1-based, both inclusive) of its `total`. A
 * presentation's window carries its slides' notes pages too, after its slides, as the
 * document's export has them after all of its slides: the window then reads as a document of
 * its own, and only the numbers are the document's.
 */
export interface WindowPages {
  first: number;
  last: number;
  total: number;
}

const slidesOf = (w: WindowPages) => w.last - w.first + 1;

/** The document's number of page `n` of the window's PDF (a notes page's after all slides). */
export function documentPage(w: WindowPages, n: number): number {
  const slides = slidesOf(w);
  return n <= slides ? w.first - 1 + n : w.total + w.first - 1 + (n - slides);
}

/** The window PDF's page that is the document's `page`; undefined when it is not in the window. */
export function windowPage(w: WindowPages, page: number): number | undefined {
  if (page >= w.first && page <= w.last) return page - w.first + 1;
  const notes = page - w.total;
  if (notes >= w.first && notes <= w.last) return slidesOf(w) + notes - w.first + 1;
  return undefined;
}

/**
 * The 0-based page indexes of a document's PDF that make up each window's PDF: its slides,
 * then (`notesPages`, a presentation whose export has a notes page per slide after all
 * `total` slides) their notes pages.
 */
export function windowPageIndexes(w: WindowPages, notesPages: boolean): [number, number][] {
  const slides: [number, number] = [w.first - 1, w.last - 1];
  return notesPages ? [slides, [w.total + w.first - 1, w.total + w.last - 1]] : [slides];
}
