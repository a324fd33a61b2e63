/**
 * A split bundle's documents (docs/split.md) as the pages draw them: which document each page
 * belongs to and which colour each document gets. Pure, so it is tested without a browser.
 */

/** The class of pages that belong to no class asked for: drawn grey, never extracted. */
export const OTHER_CLASS = 'other';

/** How many colours the documents cycle through (`doc-colour-0` … in styles.css). */
export const COLOURS = 8;

export interface SplitDocument {
  class: string;
  pages: { from: number; to: number };
  confidence: number;
  extractionId: string | null;
}

/** One of a bundle's documents as drawn: its number (from 1) and colour beside it. */
export interface DrawnDocument extends SplitDocument {
  number: number;
  /** `doc-colour-<n>`, or `doc-colour-other` for pages of no class. */
  colour: string;
}

/**
 * The documents of a completed parent's result, or undefined when the result is not one (still
 * running, failed, or an ordinary extraction). Read defensively: it is the API's JSON.
 */
export function documentsOf(result: unknown): SplitDocument[] | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const docs = (result as { documents?: unknown }).documents;
  if (!Array.isArray(docs)) return undefined;
  const valid = docs.filter(
    (d): d is SplitDocument =>
      !!d &&
      typeof d === 'object' &&
      typeof (d as SplitDocument).class === 'string' &&
      Number.isInteger((d as SplitDocument).pages?.from) &&
      Number.isInteger((d as SplitDocument).pages?.to),
  );
  return valid.length === docs.length ? valid : undefined;
}

/**
 * Numbers and colours: documents of a class take the next colour in turn, so two neighbours
 * never share one (with at least two colours), and `other` documents are grey.
 */
export function drawDocuments(docs: SplitDocument[]): DrawnDocument[] {
  let next = 0;
  return docs.map((d, i) => ({
    ...d,
    number: i + 1,
    colour: d.class === OTHER_CLASS ? 'doc-colour-other' : `doc-colour-${next++ % COLOURS}`,
  }));
}

/** One page of the bundle and the document it belongs to (the result covers every page). */
export interface BundlePage {
  page: number;
  document: DrawnDocument;
  /** The first page of its document: where a new document starts. */
  starts: boolean;
}

export function bundlePages(docs: DrawnDocument[]): BundlePage[] {
  const pages: BundlePage[] = [];
  for (const document of docs)
    for (let page = document.pages.from; page <= document.pages.to; page++)
      pages.push({ page, document, starts: page === document.pages.from });
  return pages.sort((a, b) => a.page - b.page);
}

/** "page 3" or "pages 1–2". */
export function pageRange(pages: { from: number; to: number }): string {
  return pages.from === pages.to ? `page ${pages.from}` : `pages ${pages.from}–${pages.to}`;
}

/** A confidence in 0..1 as a whole percentage. */
export function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}
