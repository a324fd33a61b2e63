/**
 * Scoring a bundle's split against `datasets/bundles/expected/<bundle>.json`. A boundary is a
 * page where a document starts. Page 1 starts a document in every split, right or wrong, so it
 * is not counted: a split that found nothing scores recall 0, not 1 in (documents) of them.
 */

export interface SplitDocument {
  class: string;
  pages: { from: number; to: number };
}

/** Counts over one bundle, or summed over many (micro-averaged figures). */
export interface SplitCounts {
  /** true document starts after page 1 */
  trueBoundaries: number;
  /** document starts after page 1 that the split gave */
  predictedBoundaries: number;
  /** of those, the true ones */
  foundBoundaries: number;
  /** true documents */
  documents: number;
  /** true documents whose first page the split put in a document of their class */
  classRight: number;
  /** true documents the split gave exactly: same first and last page, same class */
  exact: number;
}

export const NO_COUNTS: SplitCounts = {
  trueBoundaries: 0,
  predictedBoundaries: 0,
  foundBoundaries: 0,
  documents: 0,
  classRight: 0,
  exact: 0,
};

const starts = (docs: readonly SplitDocument[]) =>
  new Set(docs.map((d) => d.pages.from).filter((page) => page > 1));

/** `predicted` is the parent's `result.documents`; none (a failed split) finds nothing. */
export function scoreSplit(
  expected: readonly SplitDocument[],
  predicted: readonly SplitDocument[] = [],
): SplitCounts {
  const want = starts(expected);
  const got = starts(predicted);
  const holding = (page: number) =>
    predicted.find((d) => d.pages.from <= page && page <= d.pages.to);
  return {
    trueBoundaries: want.size,
    predictedBoundaries: got.size,
    foundBoundaries: [...got].filter((page) => want.has(page)).length,
    documents: expected.length,
    classRight: expected.filter((d) => holding(d.pages.from)?.class === d.class).length,
    exact: expected.filter((d) =>
      predicted.some(
        (p) => p.class === d.class && p.pages.from === d.pages.from && p.pages.to === d.pages.to,
      ),
    ).length,
  };
}

export function addCounts(a: SplitCounts, b: SplitCounts): SplitCounts {
  return {
    trueBoundaries: a.trueBoundaries + b.trueBoundaries,
    predictedBoundaries: a.predictedBoundaries + b.predictedBoundaries,
    foundBoundaries: a.foundBoundaries + b.foundBoundaries,
    documents: a.documents + b.documents,
    classRight: a.classRight + b.classRight,
    exact: a.exact + b.exact,
  };
}

/** Shares 0–1. A split that gave no boundaries has precision 1 (it claimed nothing wrong). */
export function splitFigures(c: SplitCounts): {
  precision: number;
  recall: number;
  classAccuracy: number;
  exactDocuments: number;
} {
  const share = (part: number, whole: number, empty: number) => (whole ? part / whole : empty);
  return {
    precision: share(c.foundBoundaries, c.predictedBoundaries, 1),
    recall: share(c.foundBoundaries, c.trueBoundaries, 1),
    classAccuracy: share(c.classRight, c.documents, 1),
    exactDocuments: share(c.exact, c.documents, 1),
  };
}
