import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { GroundingLine } from '@xt/contract';
import type { PlacedLine } from './text-layer.ts';

/**
 * What a converted document carries beside its laid-out pages (docs/sources.md#documents):
 * comments, which LibreOffice's export writes as PDF text annotations on the page of their
 * anchor, and speaker notes, which it draws on a notes page per slide after all the slides.
 */

/** One comment on a page: who wrote it (and when, as the export writes it), and its lines. */
export interface PageComment {
  author: string;
  /** The comment's lines, each boxed where its marker is on the page. */
  lines: GroundingLine[];
}

interface TextAnnotation {
  subtype?: string;
  rect?: number[];
  contentsObj?: { str?: string };
  titleObj?: { str?: string };
}

/**
 * The page's comments, in the order they are drawn. A comment's box is its marker's (the
 * annotation's rectangle, near its anchor in the text): the comment itself is not drawn on the
 * page, so a value quoted from one is boxed there.
 */
export async function pageComments(page: PDFPageProxy): Promise<PageComment[]> {
  const annotations = (await page.getAnnotations({ intent: 'display' })) as TextAnnotation[];
  const viewport = page.getViewport({ scale: 1 });
  const comments: PageComment[] = [];
  for (const annotation of annotations) {
    if (annotation.subtype !== 'Text') continue;
    const text = annotation.contentsObj?.str?.trim() ?? '';
    if (text === '') continue;
    const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = annotation.rect ?? [];
    const corners = [
      viewport.convertToViewportPoint(x0, y0),
      viewport.convertToViewportPoint(x1, y1),
    ];
    const xs = corners.map(([x]) => Number(x) / viewport.width);
    const ys = corners.map(([, y]) => Number(y) / viewport.height);
    const clamp = (v: number) => Math.min(1, Math.max(0, v));
    const box: GroundingLine['box'] = [
      clamp(Math.min(...xs)),
      clamp(Math.min(...ys)),
      clamp(Math.max(...xs)),
      clamp(Math.max(...ys)),
    ];
    const lines = text
      .split(/\r\n|\r|\n/)
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter((line) => line !== '')
      .map((line) => ({ text: line, box }));
    // LibreOffice titles a comment "Author, date, ".
    const author = trimEnd(annotation.titleObj?.str ?? '', ', ');
    comments.push({ author, lines });
  }
  return comments;
}

/** `text` without any of `chars` at its end (a loop: a regular expression would be quadratic). */
function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return text.slice(0, end).trim();
}

/** The comments as the model reads them: one item each, its author first. */
export function commentsText(comments: PageComment[]): string {
  return comments
    .map((c) => `- ${c.author ? `${c.author}: ` : ''}${c.lines.map((l) => l.text).join('\n  ')}`)
    .join('\n');
}

const squash = (text: string) => text.replace(/\s+/g, '').toLowerCase();

/**
 * The lines of a slide's notes page that are its notes. The notes page also draws the slide
 * itself, scaled down, and the slide's number: lines the slide has too, and a line that is only
 * a number, are not notes.
 */
export function notesLines(notesPage: PlacedLine[], slide: PlacedLine[]): PlacedLine[] {
  const onSlide = new Set(slide.map((line) => squash(line.text)));
  return notesPage.filter((line) => {
    const text = squash(line.text);
    return text !== '' && !onSlide.has(text) && !/^\d+$/.test(text);
  });
}
