/**
 * Documents and presentations made by LibreOffice from content written here, read back through
 * the real converter (isolated as the worker runs it) and the PDF reader: what reaches the
 * model, and where each value can be cited.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentPart, GroundingPage, PreparedSource } from '@xt/contract';
import { flatPresentation, flatTextDocument, jpegImage, officeFile } from '@xt/testkit/fixtures';
import { preparePdf } from '../pdf/prepare-pdf.ts';
import { createDocumentConverter } from './converter/converter.ts';
import { createDocumentReader, readConverted } from './prepare-document.ts';

const converter = createDocumentConverter({
  memoryMb: 2048,
  timeoutMs: 180_000,
  concurrency: 2,
  environment: process.env,
});
const reader = createDocumentReader({
  converter,
  archive: { maxExpandedBytes: 100 * 1024 * 1024, maxEntries: 10_000, maxRatio: 200 },
});
const read = async (
  bytes: Buffer,
  format: 'docx' | 'pptx' | 'odt' | 'doc' | 'rtf' | 'ppt' | 'odp',
): Promise<PreparedSource> =>
  readConverted(
    await reader.convertDocumentBytes(bytes, format, AbortSignal.timeout(300_000)),
    (pdf, converted) =>
      preparePdf(pdf, {
        model: 'gpt-4.1',
        mode: 'auto',
        maxPages: 100,
        maxImagePages: 10,
        maxImagePixels: 50_000_000,
        grounding: true,
        converted,
      }),
  );

const textOf = (parts: ContentPart[]) =>
  parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');
const pagesOf = (source: PreparedSource): GroundingPage[] =>
  source.grounding?.kind === 'pages' ? source.grounding.pages : [];
/** The page and box of the first grounding line that contains `text`. */
function whereIs(source: PreparedSource, text: string) {
  for (const page of pagesOf(source))
    for (const line of page.lines)
      if (line.text.includes(text)) return { page: page.page, box: line.box };
  return undefined;
}

const REPORT = flatTextDocument({
  paragraphs: [
    { text: 'Supply contract SC-2291', heading: true },
    {
      text: 'The contract value is 48,250.00 EUR.',
      comment: { author: 'Dana Reyes', text: 'Approved under purchase order PO-7731' },
    },
    {
      text: 'Delivery within 30 days.',
      footnote: 'Counted from the signature date, reference FN-5521.',
    },
    { text: 'Second page starts here: penalty 2.5 percent per week.', newPage: true },
  ],
  table: [
    ['Item', 'Quantity', 'Amount'],
    ['Steel bracket', '12', '1,440.00'],
  ],
});

const DECK = flatPresentation([
  {
    title: 'Quarterly review',
    lines: ['Revenue 4.2 M EUR'],
    group: ['Grouped box A-17', 'Grouped box B-42'],
    notes: 'Say that the margin was 31 percent.',
    comment: { author: 'Lee Park', text: 'Check the churn figure C-55' },
  },
  { title: 'Hidden backup slide', lines: ['Backup figure H-88'], hidden: true },
  { title: 'Headcount', lines: ['Headcount 118'], notes: 'New hires start on 2026-04-01.' },
]);

const PLAIN_DECK = flatPresentation([
  { title: 'Plain one', lines: ['No notes P-1'] },
  { title: 'Plain two', lines: ['No notes P-2'], hidden: true },
  { title: 'Plain three', lines: ['No notes P-3'] },
]);

let docx: Buffer;
let pptx: Buffer;
let plainPptx: Buffer;
let picturePptx: Buffer;
beforeAll(async () => {
  const photo = await jpegImage({ width: 2400, height: 1600 });
  [docx, pptx, plainPptx, picturePptx] = await Promise.all([
    officeFile(REPORT, 'docx'),
    officeFile(DECK, 'pptx'),
    officeFile(PLAIN_DECK, 'pptx'),
    officeFile(flatPresentation([{ title: 'Site photo', image: photo }]), 'pptx'),
  ]);
}, 300_000);

/** Page objects in a PDF LibreOffice wrote (it writes no object streams). */
const pdfPages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g)?.length;

describe('a DOCX', () => {
  it('reaches the model as its converted pages, with its comment and footnote on their page', async () => {
    const source = await read(docx, 'docx');
    const text = textOf(source.parts);
    expect(text).toContain('--- Page 1 ---');
    expect(text).toContain('The contract value is 48,250.00 EUR.');
    expect(text).toMatch(
      /Comments on page 1:\n- Dana Reyes[^:]*: Approved under purchase order PO-7731/,
    );
    // Footnotes are laid out at the foot of their page: part of its text layer.
    expect(text).toContain('reference FN-5521');
    expect(text).toContain('--- Page 2 ---');
    expect(text).toMatch(/Steel bracket\t12\t1,440.00/);
    // Every value is on a page with a box: the comment at its marker on page 1.
    expect(whereIs(source, 'PO-7731')).toMatchObject({ page: 1 });
    expect(whereIs(source, 'FN-5521')).toMatchObject({ page: 1 });
    expect(whereIs(source, 'penalty 2.5 percent')).toMatchObject({ page: 2 });
    for (const page of pagesOf(source))
      for (const line of page.lines) {
        const [x0, y0, x1, y1] = line.box;
        expect(x1).toBeGreaterThan(x0);
        expect(y1).toBeGreaterThan(y0);
      }
  }, 300_000);
});

describe('a PPTX', () => {
  it('reaches the model slide by slide, with grouped shapes, comments and speaker notes', async () => {
    const source = await read(pptx, 'pptx');
    const text = textOf(source.parts);
    // Hidden slides are read too, so page k is always slide k.
    expect(text).toMatch(/--- Page 1 ---\nQuarterly review/);
    expect(text).toMatch(/--- Page 2 ---\nHidden backup slide/);
    expect(text).toMatch(/--- Page 3 ---\nHeadcount/);
    expect(text).toContain('Grouped box A-17');
    expect(text).toContain('Grouped box B-42');
    expect(text).toMatch(/Comments on page 1:\n- Lee Park[^:]*: Check the churn figure C-55/);
    expect(text).toContain(
      'Speaker notes of page 1 (drawn on page 4):\nSay that the margin was 31 percent.',
    );
    expect(text).toContain(
      'Speaker notes of page 3 (drawn on page 6):\nNew hires start on 2026-04-01.',
    );
    // Slide text seen on a notes page (its thumbnail) is not repeated as notes.
    expect(text).not.toContain('Speaker notes of page 2');
    expect(text.match(/Headcount 118/g)).toHaveLength(1);
    // A note is cited on its notes page, boxed where it is drawn there.
    expect(whereIs(source, 'margin was 31 percent')).toMatchObject({ page: 4 });
    expect(whereIs(source, '2026-04-01')).toMatchObject({ page: 6 });
    expect(whereIs(source, 'C-55')).toMatchObject({ page: 1 });
    expect(whereIs(source, 'Grouped box B-42')).toMatchObject({ page: 1 });
  }, 300_000);

  it('is laid out with notes pages only when it has speaker notes', async () => {
    const signal = AbortSignal.timeout(300_000);
    const withNotes = await reader.convertDocumentBytes(pptx, 'pptx', signal);
    expect(withNotes.notesPages).toBe(true);
    expect(pdfPages(withNotes.pdf)).toBe(6);
    // Hidden slides are still exported, so page k stays slide k.
    const plain = await reader.convertDocumentBytes(plainPptx, 'pptx', signal);
    expect(plain.notesPages).toBe(false);
    expect(pdfPages(plain.pdf)).toBe(3);
  }, 300_000);

  it('keeps a picture as it is instead of resampling it on every page', async () => {
    // A 2,400-pixel photo in a 6 cm frame: LibreOffice's default export would scale it to
    // 300 DPI (709 pixels), again on each page that draws it.
    const { pdf } = await reader.convertDocumentBytes(
      picturePptx,
      'pptx',
      AbortSignal.timeout(300_000),
    );
    // Only image objects have a /Width in a PDF LibreOffice writes.
    const widths = [...pdf.toString('latin1').matchAll(/\/Width\s+(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    expect(widths).toContain(2400);
  }, 300_000);
});
