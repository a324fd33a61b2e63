import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
} from 'pdf-lib';
import { scanContent, type Mark } from './content-marks.ts';
import type { UserSpaceRun } from './form-fields.ts';

/*
 * A PDF may say what a run of glyphs reads as in a marked-content sequence's `/ActualText`,
 * which readers are to take instead of the glyphs' own Unicode. LibreOffice does so for every
 * character it draws with a fallback font's missing glyph (a CJK document on a machine without
 * a CJK font, as any bare container has): all those characters share one glyph and one char
 * code, whose ToUnicode entry is the first character met, and the true text is only in each
 * character's ActualText. pdftotext reads it; pdf.js's text content does not, so every such
 * character read as the first one ("請請請" for "請求書"). pdf.js hands out neither the
 * property nor the content stream, so the page's streams are read again with pdf-lib, only for
 * pages that have such sequences, and matched to pdf.js's items by order.
 */

/** ActualText of a document's pages, its second parse done once and only when asked. */
export interface ActualTexts {
  /** Each marked-content sequence page `n` (1-based) begins, in order; null when unreadable. */
  forPage(n: number): Promise<(string | null)[] | null>;
}

/** Form XObjects nested deeper are not followed (pdf.js's text content follows them all). */
const MAX_FORM_DEPTH = 12;

export function actualTexts(bytes: Uint8Array): ActualTexts {
  let loaded: Promise<PDFDocument | null> | undefined;
  return {
    async forPage(n) {
      // An encrypted file is refused by pdf-lib here (its streams could not be decoded): its
      // text stays pdf.js's.
      loaded ??= PDFDocument.load(bytes, { updateMetadata: false }).catch(() => null);
      const doc = await loaded;
      if (!doc || n < 1 || n > doc.getPageCount()) return null;
      try {
        return pageMarks(doc.getPage(n - 1).node);
      } catch {
        return null;
      }
    },
  };
}

const name = (key: string) => PDFName.of(key);

function textOf(value: unknown): string | null {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null;
}

function inheritedResources(node: PDFDict): PDFDict | undefined {
  let at: PDFDict | undefined = node;
  for (let depth = 0; at && depth < 64; depth++) {
    const own = at.lookupMaybe(name('Resources'), PDFDict);
    if (own) return own;
    at = at.lookupMaybe(name('Parent'), PDFDict);
  }
  return undefined;
}

function decoded(stream: unknown): Uint8Array {
  if (!(stream instanceof PDFRawStream)) throw new Error('not a stream');
  return decodePDFRawStream(stream).decode();
}

/** A page's content, its streams joined as pdf.js joins them (a token may span two). */
function pageContent(page: PDFDict): Uint8Array {
  const contents = page.lookup(name('Contents'));
  if (contents instanceof PDFArray) {
    const parts = contents.asArray().map((ref) => decoded(page.context.lookup(ref)));
    return Buffer.concat(parts.flatMap((p) => [p, Buffer.from('\n')]));
  }
  return contents === undefined ? new Uint8Array() : decoded(contents);
}

function pageMarks(page: PDFDict): (string | null)[] {
  const marks: (string | null)[] = [];
  const walk = (content: Uint8Array, resources: PDFDict | undefined, forms: PDFRawStream[]) =>
    scanContent(content, {
      mark: (mark: Mark) =>
        marks.push(
          'actualText' in mark
            ? mark.actualText
            : textOf(
                resources
                  ?.lookupMaybe(name('Properties'), PDFDict)
                  ?.lookupMaybe(name(mark.properties), PDFDict)
                  ?.lookup(name('ActualText')),
              ),
        ),
      paint: (xobject) => {
        const form = resources?.lookupMaybe(name('XObject'), PDFDict)?.lookup(name(xobject));
        if (!(form instanceof PDFRawStream) || forms.includes(form)) return;
        if (forms.length >= MAX_FORM_DEPTH) throw new Error('forms nested too deep');
        if (form.dict.lookup(name('Subtype')) !== name('Form')) return;
        const own = form.dict.lookupMaybe(name('Resources'), PDFDict);
        walk(decoded(form), own ?? resources, [...forms, form]);
      },
    });
  walk(pageContent(page), inheritedResources(page), []);
  return marks;
}

/** A text content item: a run of text, or where a marked-content sequence begins or ends. */
export type ContentItem = UserSpaceRun | { type: string; tag?: string | null; id?: string | null };

const isRun = (item: ContentItem): item is UserSpaceRun => 'str' in item;

/**
 * Whether the page has sequences that may carry ActualText: LibreOffice's are `Span`s outside
 * any structure tree, so without a marked-content id. A tagged PDF (Word's) has a `Span` with an
 * id for every run of another language: reading its streams again for those would parse many
 * documents twice for nothing, so their ActualText, if any, is not read.
 */
export function mayHaveActualText(items: readonly ContentItem[]): boolean {
  return items.some(
    (i) =>
      !isRun(i) &&
      i.type === 'beginMarkedContentProps' &&
      i.tag === 'Span' &&
      (i.id ?? null) === null,
  );
}

/**
 * The page's runs with each sequence that has ActualText read as it: its runs become one, where
 * its first run starts and as long as they all are. `marks` must be pdf.js's sequences one for
 * one; when their counts differ (a stream pdf.js read otherwise), the runs are left as they are.
 */
export function withActualText(
  items: readonly ContentItem[],
  marks: readonly (string | null)[],
): UserSpaceRun[] {
  const begun = items.filter((i) => !isRun(i) && i.type.startsWith('beginMarkedContent')).length;
  if (begun !== marks.length) return items.filter(isRun);
  const out: UserSpaceRun[] = [];
  const open: { text: string | null; runs: UserSpaceRun[] }[] = [];
  let next = 0;
  const close = () => {
    const span = open.pop()!;
    const into = open.at(-1)?.runs ?? out;
    into.push(...(span.text === null ? span.runs : asOneRun(span.runs, span.text)));
  };
  for (const item of items) {
    if (isRun(item)) (open.at(-1)?.runs ?? out).push(item);
    else if (item.type.startsWith('beginMarkedContent'))
      open.push({ text: marks[next++]!, runs: [] });
    else if (item.type === 'endMarkedContent' && open.length > 0) close();
  }
  while (open.length > 0) close();
  return out;
}

/**
 * Runs read as `text`: the first drawn run's place, stretched to the end of the last one. Runs
 * of white space stay as they are: pdf.js puts a space it infers from a gap before the next
 * glyph, inside that glyph's sequence, and the gap is what tells words apart here.
 */
function asOneRun(runs: UserSpaceRun[], text: string): UserSpaceRun[] {
  const drawn = runs.filter((r) => r.str.trim() !== '');
  const first = drawn[0];
  if (!first) return runs;
  const [a = 1, b = 0, , , e = 0, f = 0] = first.transform;
  const scale = Math.hypot(a, b) || 1;
  // How far along the first run's baseline each run ends.
  const ends = drawn.map((r) => {
    const [, , , , re = 0, rf = 0] = r.transform;
    return ((re - e) * a + (rf - f) * b) / scale + r.width;
  });
  const blank = runs.filter((r) => r.str.trim() === '');
  return [...blank, { ...first, str: text, width: Math.max(first.width, ...ends) }];
}
