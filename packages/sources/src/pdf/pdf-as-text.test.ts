import { describe, expect, it } from 'vitest';
import type { ContentPart, GroundingSource } from '@xt/contract';
import { failureOf } from '@xt/testkit';
import * as fx from '@xt/testkit/fixtures';
import { preparePdf, type PdfOptions } from './prepare-pdf.ts';

const textOnly: PdfOptions = {
  model: 'gpt-4.1',
  mode: 'auto',
  maxPages: 100,
  maxImagePages: 100,
  maxImagePixels: 50_000_000,
  ocr: { timeoutMs: 30_000 },
  images: false,
};

const texts = (parts: ContentPart[]) =>
  parts.map((p) => (p.kind === 'text' ? [p.unit, p.text] : [p.unit, p.kind]));

const pagesOf = (grounding: GroundingSource | undefined) =>
  grounding?.kind === 'pages' ? grounding.pages : [];

describe('preparePdf for a model that takes no images', () => {
  it('sends a scanned page as its OCR text under its page marker, beside text pages', async () => {
    const pdf = await fx.mixedPdf([
      { text: 'A born-digital page with a proper text layer.' },
      { scan: 'Scanned receipt total 12.50' },
    ]);
    const result = await preparePdf(pdf, textOnly);
    expect(texts(result.parts)).toEqual([
      [1, '--- Page 1 ---\nA born-digital page with a proper text layer.'],
      [2, '--- Page 2 ---\nScanned receipt total 12.50'],
    ]);
    expect(result).toMatchObject({ textPages: 1, imagePages: 0 });
    expect(result.imagesAsText).toEqual({ pages: 1, images: 0, leftOut: 0 });
    // Without citations nothing is kept to locate values in, as for any PDF.
    expect(result.grounding).toBeUndefined();
  });

  it("keeps an OCR'd page's number and line boxes with citations", async () => {
    const pdf = await fx.scannedPdf(['Invoice INV-77', 'Total due 12.50 EUR']);
    const result = await preparePdf(pdf, { ...textOnly, grounding: true });
    const pages = pagesOf(result.grounding);
    expect(pages.map((p) => [p.page, p.ocr])).toEqual([
      [1, true],
      [2, true],
    ]);
    const line = pages[1]!.lines.find((l) => l.text.includes('12.50'));
    expect(line?.text).toBe('Total due 12.50 EUR');
    const [left, top, right, bottom] = line!.box;
    expect(left).toBeLessThan(right);
    expect(top).toBeLessThan(bottom);
    expect(result.imagesAsText).toEqual({ pages: 2, images: 0, leftOut: 0 });
  });

  it('reads every page with OCR in images mode', async () => {
    const pdf = await fx.textPdf(['Digital page one with text.']);
    const result = await preparePdf(pdf, { ...textOnly, mode: 'images' });
    expect(result.parts.every((p) => p.kind === 'text')).toBe(true);
    expect((result.parts[0] as { text: string }).text).toMatch(/^--- Page 1 ---\nDigital page one/);
    expect(result.imagesAsText).toEqual({ pages: 1, images: 0, leftOut: 0 });
  });

  it('leaves out a picture beside good text, and says so', async () => {
    const result = await preparePdf(await fx.textWithPicturesPdf(), textOnly);
    expect(result.parts.map((p) => `${p.kind}${p.unit}`)).toEqual(['text1', 'text2']);
    expect(result.imagesAsText).toEqual({ pages: 0, images: 0, leftOut: 1 });
  });

  it('holds OCR pages to the cap of image pages', async () => {
    const pdf = await fx.scannedPdf(['One', 'Two', 'Three']);
    const err = await failureOf(preparePdf(pdf, { ...textOnly, maxImagePages: 2 }));
    expect(err.code).toBe('SOURCE_TOO_LARGE');
  });
});
