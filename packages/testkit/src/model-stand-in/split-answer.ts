import {
  readSplitPagesText,
  SPLIT_OTHER_CLASS,
  SPLIT_PAGES_KEY,
  type ClassifiedPage,
} from '@xt/contract';
import { isRecord } from './oracle/schema-walk.ts';

/*
 * How the stand-in answers a bundle's classification call (packages/contract's split.ts), as a
 * model reading page titles would, deterministically. A page's title is its first non-empty
 * line. A class whose name (underscores as spaces), or else whose description's first word,
 * appears in the title as whole words, ignoring case, is the page's class (0.95); the page
 * starts a document unless its title marks it as continuing the class of the page before
 * (`page N` or `page N of M` with N > 1, or `continued`). A page whose title names no class
 * continues the document before it (0.8); a first page naming none is `other` (0.5).
 */

/** True when the schema asked for is a classification call's structure. */
export function asksForSplit(schema: unknown): boolean {
  return isRecord(schema) && isRecord(schema.properties) && SPLIT_PAGES_KEY in schema.properties;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const hasWords = (title: string, words: string) =>
  words.trim() !== '' &&
  new RegExp(`(^|[^\\p{L}\\p{N}])${escape(words.trim())}($|[^\\p{L}\\p{N}])`, 'iu').test(title);

function continues(title: string): boolean {
  if (/\bcontinued\b/i.test(title)) return true;
  const page = /\bpage\s+(\d+)(?:\s+of\s+\d+)?\b/i.exec(title);
  return page !== null && Number(page[1]) > 1;
}

export function splitAnswer(text: string): { [SPLIT_PAGES_KEY]: ClassifiedPage[] } {
  const { classes, pages } = readSplitPagesText(text);
  const classOf = (title: string): string | undefined =>
    classes.find((c) => hasWords(title, c.name.replaceAll('_', ' ')))?.name ??
    classes.find((c) => hasWords(title, c.description?.trim().split(/\s+/)[0] ?? ''))?.name;
  const answered: ClassifiedPage[] = [];
  for (const { page, text: pageText } of pages) {
    const title =
      pageText
        .split(/\r?\n/)
        .find((l) => l.trim() !== '')
        ?.trim() ?? '';
    const previous = answered.at(-1);
    const cls = classOf(title);
    if (cls) {
      const startsDocument = !(continues(title) && (!previous || previous.class === cls));
      answered.push({ page, class: cls, startsDocument, confidence: 0.95 });
    } else if (previous) {
      answered.push({ page, class: previous.class, startsDocument: false, confidence: 0.8 });
    } else {
      answered.push({ page, class: SPLIT_OTHER_CLASS, startsDocument: true, confidence: 0.5 });
    }
  }
  return { [SPLIT_PAGES_KEY]: answered };
}
