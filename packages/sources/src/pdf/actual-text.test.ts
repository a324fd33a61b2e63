import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { asianFontPdf, CJK_LINES, missingGlyphPdf } from '@xt/testkit/fixtures';
import { mayHaveActualText, withActualText } from './actual-text.ts';
import { preparePdf } from './prepare-pdf.ts';

const SCRIPTS = Object.keys(CJK_LINES) as (keyof typeof CJK_LINES)[];
/** poppler-utils, a system package of the tests (catalogue.ts), not an npm binary. */
const PDFTOTEXT = '/usr/bin/pdftotext';

async function readLines(pdf: Buffer) {
  const read = await preparePdf(pdf, {
    model: 'gpt-4.1',
    mode: 'text',
    maxPages: 10,
    maxImagePages: 10,
    maxImagePixels: 50_000_000,
    grounding: true,
  });
  const pages = read.grounding?.kind === 'pages' ? read.grounding.pages : [];
  return pages.flatMap((p) => p.lines);
}

describe('the text layer of CJK PDFs', () => {
  it.each(SCRIPTS)(
    'reads %s drawn with a missing glyph as its ActualText says, as poppler does',
    async (script) => {
      const pdf = missingGlyphPdf(CJK_LINES[script]);
      const lines = await readLines(pdf);
      expect(lines.map((l) => l.text)).toEqual(CJK_LINES[script]);
      // Each line keeps its own box, in order down the page.
      const tops = lines.map((l) => l.box[1]);
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      expect(lines[1]!.box[2]).toBeGreaterThan(lines[0]!.box[2]);
      const poppler = execFileSync(PDFTOTEXT, ['-layout', '-', '-'], { input: pdf }).toString();
      for (const line of CJK_LINES[script]) expect(poppler).toContain(line);
    },
  );

  it.each(SCRIPTS)('reads %s in a standard Asian font through its predefined CMap', async (s) => {
    const lines = await readLines(asianFontPdf(s, CJK_LINES[s]));
    expect(lines.map((l) => l.text)).toEqual(CJK_LINES[s]);
  });
});

describe('withActualText', () => {
  const run = (str: string, x: number) => ({
    str,
    dir: 'ltr',
    transform: [10, 0, 0, 10, x, 700],
    width: 6,
  });
  const begin = { type: 'beginMarkedContentProps' };
  const end = { type: 'endMarkedContent' };

  it('reads a sequence as one run from its first glyph to its last, spaces kept apart', () => {
    const items = [begin, run('ﬁ', 10), run('x', 16), end, begin, run(' ', 22), run('請', 28), end];
    expect(withActualText(items, ['fi', '求'])).toEqual([
      { ...run('fi', 10), width: 12 },
      run(' ', 22),
      run('求', 28),
    ]);
  });

  it('leaves the runs as pdf.js read them when the sequences do not match one for one', () => {
    const items = [begin, run('請', 10), end];
    expect(withActualText(items, ['求', '書'])).toEqual([run('請', 10)]);
  });
});

describe('mayHaveActualText', () => {
  it('looks for Spans outside a structure tree, as LibreOffice writes them', () => {
    const span = (id: string | null) => ({ type: 'beginMarkedContentProps', tag: 'Span', id });
    expect(mayHaveActualText([span(null)])).toBe(true);
    expect(mayHaveActualText([span('p3R_mc4')])).toBe(false);
    expect(mayHaveActualText([{ type: 'beginMarkedContentProps', tag: 'OC', id: null }])).toBe(
      false,
    );
  });
});
