/** One page window of a long document: the document's own 1-based pages, both inclusive. */
export interface PageWindow {
  index: number;
  firstPage: number;
  lastPage: number;
}

/** The most pages a document worked by one job has (SPLIT_PAGES): more are page windows. */
export function pagesOfOneJob(splitPages: number): number {
  return Math.max(1, Math.floor(splitPages));
}

/**
 * The page windows of a document of `pagesTotal` pages worked `splitPages` at a time
 * (SPLIT_PAGES, docs/scaling.md#one-large-document), in page order; none when it fits in one.
 * The windows are as even as they can be: 100 pages at 40 are 34, 33 and 33, not 40, 40 and
 * 20, so that no window is the straggler the others wait for.
 */
export function planWindows(pagesTotal: number, splitPages: number): PageWindow[] {
  const size = pagesOfOneJob(splitPages);
  if (!Number.isFinite(pagesTotal) || pagesTotal <= size) return [];
  const count = Math.ceil(pagesTotal / size);
  const base = Math.floor(pagesTotal / count);
  const longer = pagesTotal % count;
  const windows: PageWindow[] = [];
  let firstPage = 1;
  for (let index = 0; index < count; index++) {
    const pages = base + (index < longer ? 1 : 0);
    windows.push({ index, firstPage, lastPage: firstPage + pages - 1 });
    firstPage += pages;
  }
  return windows;
}
