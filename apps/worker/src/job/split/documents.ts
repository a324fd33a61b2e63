import { SPLIT_OTHER_CLASS, type ClassifiedPage, type SplitPages } from '@xt/contract';

/** A document of the bundle as classified, before any child reads it. */
export interface ClassifiedDocument {
  class: string;
  pages: SplitPages;
  confidence: number;
}

const clamp = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

/**
 * The bundle's documents from its pages' classifications (every chunk's, in any order): a new
 * document where a page starts one or the class changes, its confidence the lowest of its
 * pages'. Every page from 1 to `pagesTotal` is covered exactly once, whatever the model
 * answered: a page it left out, or answered twice, or out of range, is taken as continuing the
 * document before it (confidence 0 for one left out), and a class it made up as `other`.
 * Without `other`, a page of no class continues the document before it (the first page takes
 * the first class): the client asked that every page belong to one of its classes.
 */
export function documentsOf(
  answered: readonly ClassifiedPage[],
  pagesTotal: number,
  classes: readonly string[],
  other: boolean,
): ClassifiedDocument[] {
  const known = new Map(classes.map((c) => [c.toLowerCase(), c]));
  const byPage = new Map<number, ClassifiedPage>();
  for (const p of answered)
    if (Number.isInteger(p.page) && p.page >= 1 && p.page <= pagesTotal && !byPage.has(p.page))
      byPage.set(p.page, p);
  const documents: ClassifiedDocument[] = [];
  for (let page = 1; page <= pagesTotal; page++) {
    const previous = documents.at(-1);
    const answer = byPage.get(page);
    let cls = answer
      ? (known.get(String(answer.class).toLowerCase()) ?? SPLIT_OTHER_CLASS)
      : undefined;
    let starts = answer?.startsDocument === true;
    if (cls === SPLIT_OTHER_CLASS && !other) {
      cls = previous?.class ?? classes[0] ?? SPLIT_OTHER_CLASS;
      starts = false;
    }
    const confidence = answer ? clamp(answer.confidence) : 0;
    if (previous && (cls === undefined || (!starts && cls === previous.class))) {
      previous.pages.to = page;
      previous.confidence = Math.min(previous.confidence, confidence);
      continue;
    }
    documents.push({
      class: cls ?? (other ? SPLIT_OTHER_CLASS : (classes[0] ?? SPLIT_OTHER_CLASS)),
      pages: { from: page, to: page },
      confidence,
    });
  }
  return documents;
}
