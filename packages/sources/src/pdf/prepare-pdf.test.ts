import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ContentPart } from '@xt/contract';
import * as fx from '@xt/testkit/fixtures';
import { imagePagesShare, preparePdf, type PdfOptions } from './prepare-pdf.ts';
import { failureOf } from '@xt/testkit';

const base: PdfOptions = {
  model: 'gpt-4.1',
  mode: 'auto',
  maxPages: 100,
  maxImagePages: 100,
  maxImagePixels: 50_000_000,
};
type ImagePart = Extract<ContentPart, { kind: 'image' }>;
type TextPart = Extract<ContentPart, { kind: 'text' }>;

async function decode(part: ImagePart) {
  const data = Buffer.from(part.dataUrl.slice(part.dataUrl.indexOf(',') + 1), 'base64');
  const meta = await sharp(data).metadata();
  const stats = await sharp(data).stats();
  return { meta, min: Math.min(...stats.channels.map((c) => c.min)) };
}

describe('preparePdf: a page window', () => {
  const pages = ['Page one: opening.', 'Page two: middle.', 'Page three: more.', 'Page four: end.'];

  it('reads only its pages, with the document page numbers, and counts the whole document', async () => {
    const result = await preparePdf(await fx.textPdf(pages), {
      ...base,
      grounding: true,
      pages: { first: 2, last: 3 },
    });
    expect(result.pageCount).toBe(4);
    expect(result.parts.map((p) => p.unit)).toEqual([2, 3]);
    expect((result.parts[0] as TextPart).text).toMatch(/^--- Page 2 ---\nPage two/);
    expect(result.grounding).toMatchObject({ kind: 'pages', pages: [{ page: 2 }, { page: 3 }] });
  });

  it('reads only the count when the range ends before it starts', async () => {
    const result = await preparePdf(await fx.textPdf(pages), {
      ...base,
      pages: { first: 1, last: 0 },
    });
    expect(result).toMatchObject({ pageCount: 4, parts: [], textPages: 0 });
  });
});

describe('preparePdf: text layer', () => {
  it('gives one text part per page, in order, with page markers and units', async () => {
    const pages = [
      'Alpha page: invoice 1001 for ACME Ltd.',
      'Beta page: delivery note 2002.',
      'Gamma page: terms.',
    ];
    const result = await preparePdf(await fx.textPdf(pages), base);
    expect(result).toMatchObject({ pageCount: 3, textPages: 3, imagePages: 0 });
    expect(result.parts.map((p) => p.kind)).toEqual(['text', 'text', 'text']);
    result.parts.forEach((part, i) => {
      const text = (part as TextPart).text;
      expect(part.unit).toBe(i + 1);
      expect(text.startsWith(`--- Page ${i + 1} ---\n`)).toBe(true);
      expect(text).toContain(pages[i]);
    });
  });

  it('reads lines in reading order, not drawing order, and honours page rotation', async () => {
    const result = await preparePdf(await fx.shuffledTextPdf(), { ...base, mode: 'text' });
    const [first, second] = result.parts as TextPart[];
    expect(first!.text).toBe(
      '--- Page 1 ---\nFirst line of the page.\nSecond line:\ttotal 42.00 EUR\nThird line comes last.',
    );
    expect(second!.text).toBe('--- Page 2 ---\nRotated page heading\nRotated page body text.');
  });

  it('reads filled-in form fields next to their labels', async () => {
    const result = await preparePdf(await fx.filledFormPdf(), base);
    expect(result.textPages).toBe(1);
    expect((result.parts[0] as TextPart).text).toBe(
      [
        '--- Page 1 ---',
        'Application form for a library card',
        'Full name:\tJane Q. Doe',
        'Newsletter:\t[x]',
        'Paper mail:\t[ ]',
        'Country:\tGermany',
      ].join('\n'),
    );
  });

  it('keeps every page of a long document', async () => {
    const result = await preparePdf(await fx.multiPagePdf(40), base);
    expect(result.textPages).toBe(40);
    expect((result.parts[39] as TextPart).text).toContain('Page 40 of 40');
  });
});

describe('preparePdf: page images', () => {
  it('rasterises scanned pages at the size gpt-4.1 sees', async () => {
    const result = await preparePdf(
      await fx.scannedPdf(['Scanned receipt total 12.50', 'Second scan']),
      base,
    );
    expect(result).toMatchObject({ pageCount: 2, textPages: 0, imagePages: 2 });
    expect(result.parts.map((p) => [p.kind, p.unit])).toEqual([
      ['text', 1],
      ['image', 1],
      ['text', 2],
      ['image', 2],
    ]);
    expect((result.parts[0] as TextPart).text).toBe('--- Page 1 ---');
    const image = result.parts[1] as ImagePart;
    expect({ width: image.width, height: image.height }).toEqual({ width: 768, height: 994 });
    expect(image.detail).toBe('high');
    const { meta, min } = await decode(image);
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 768, height: 994 });
    expect(min).toBeLessThan(80); // dark glyphs drawn: the scan really was rendered
  });

  it('fills the gpt-4.1-mini patch budget', async () => {
    const result = await preparePdf(await fx.scannedPdf(['Scanned']), {
      ...base,
      model: 'gpt-4.1-mini',
    });
    const image = result.parts[1] as ImagePart;
    const patches = Math.ceil(image.width / 32) * Math.ceil(image.height / 32);
    expect(patches).toBeLessThanOrEqual(1536);
    expect(patches).toBeGreaterThan(1400);
  });

  it('mixes text and images page by page in auto mode', async () => {
    const pdf = await fx.mixedPdf([
      { text: 'A born-digital page with a proper text layer.' },
      { scan: 'A page that was scanned.' },
      { text: 'Another digital page with words on it.' },
    ]);
    const result = await preparePdf(pdf, base);
    expect(result).toMatchObject({ pageCount: 3, textPages: 2, imagePages: 1 });
    expect(result.parts.map((p) => `${p.kind}${p.unit}`)).toEqual([
      'text1',
      'text2',
      'image2',
      'text3',
    ]);
  });

  it('adds the page image to good text when a large picture is on the page', async () => {
    const result = await preparePdf(await fx.textWithPicturesPdf(), base);
    expect(result).toMatchObject({ pageCount: 2, textPages: 2, imagePages: 1 });
    expect(result.parts.map((p) => `${p.kind}${p.unit}`)).toEqual(['text1', 'image1', 'text2']);
    expect((result.parts[0] as TextPart).text).toContain('damaged crate');
  });

  it('renders every page in images mode and skips blank pages', async () => {
    const pdf = await fx.mixedPdf([
      { text: 'Digital page one with text.' },
      { text: '' },
      { scan: 'Scan' },
    ]);
    const result = await preparePdf(pdf, { ...base, mode: 'images' });
    expect(result).toMatchObject({ pageCount: 3, textPages: 0, imagePages: 2 });
    expect(result.parts.filter((p) => p.kind === 'image').map((p) => p.unit)).toEqual([1, 3]);
  });

  it('skips embedded images above maxImagePixels instead of decoding them', async () => {
    const err = await failureOf(
      preparePdf(await fx.scannedPdf(['Scan']), { ...base, maxImagePixels: 10_000 }),
    );
    expect(err.code).toBe('SOURCE_UNREADABLE');
  });
});

describe('preparePdf: refusals', () => {
  it('refuses too many pages before doing any page work', async () => {
    const err = await failureOf(preparePdf(fx.hugePdf(5000), base));
    expect(err.code).toBe('SOURCE_TOO_LARGE');
    expect(err.message).toContain('5000 pages');
    expect(
      (await failureOf(preparePdf(await fx.multiPagePdf(11), { ...base, maxPages: 10 }))).code,
    ).toBe('SOURCE_TOO_LARGE');
  });

  it('caps the pages sent as images, not the pages read as text', async () => {
    const scans = await fx.scannedPdf(['One', 'Two', 'Three']);
    const auto = await failureOf(preparePdf(scans, { ...base, maxImagePages: 2 }));
    expect(auto.code).toBe('SOURCE_TOO_LARGE');
    expect(auto.message).toContain('as images');
    const images = await failureOf(
      preparePdf(await fx.textPdf(['a', 'b', 'c']), { ...base, mode: 'images', maxImagePages: 2 }),
    );
    expect(images.code).toBe('SOURCE_TOO_LARGE');
    const text = await preparePdf(
      await fx.textPdf(['Alpha page text', 'Beta page text', 'Gamma page text']),
      {
        ...base,
        maxImagePages: 0,
      },
    );
    expect(text.textPages).toBe(3);
  });

  it('caps the pages a window sends as images at its share of the document, so the cap holds for the document', async () => {
    const scans = await fx.scannedPdf(['One', 'Two', 'Three', 'Four', 'Five', 'Six']);
    // A cap of 3 over 6 pages: one job fails at the fourth scanned page.
    expect((await failureOf(preparePdf(scans, { ...base, maxImagePages: 3 }))).code).toBe(
      'SOURCE_TOO_LARGE',
    );
    // As two windows of 3 pages, each may send 1 or 2 of the 3, not 3 of its own.
    const first = await failureOf(
      preparePdf(scans, { ...base, maxImagePages: 3, pages: { first: 1, last: 3 } }),
    );
    expect(first.code).toBe('SOURCE_TOO_LARGE');
    expect(first.message).toContain('Pages 1-3 of the 6-page PDF need more than 1 pages');
    // Under the cap for the document, each window reads all its scanned pages.
    for (const pages of [
      { first: 1, last: 3 },
      { first: 4, last: 6 },
    ]) {
      const read = await preparePdf(scans, { ...base, maxImagePages: 6, pages });
      expect(read.imagePages).toBe(3);
    }
  });

  it("refuses a window's own PDF in images mode by the document's pages, before any page work", async () => {
    // Pages 2-3 of 3 with a cap of 2: the window alone fits (its share is 2), the document
    // does not, so one job would refuse it before reading a page.
    const err = await failureOf(
      preparePdf(await fx.textPdf(['b', 'c']), {
        ...base,
        mode: 'images',
        maxImagePages: 2,
        window: { first: 2, last: 3, total: 3 },
      }),
    );
    expect(err.code).toBe('SOURCE_TOO_LARGE');
    expect(err.message).toContain('at most 2 are accepted');
  });

  it('shares the image pages out among windows so that they add up to the cap', () => {
    const tile = (total: number, size: number, max: number) => {
      let sum = 0;
      for (let first = 1; first <= total; first += size)
        sum += imagePagesShare(max, { first, last: Math.min(total, first + size - 1), total });
      return sum;
    };
    for (const [total, size, max] of [
      [100, 34, 100],
      [1000, 40, 100],
      [41, 40, 100],
      [7, 3, 2],
      [240, 40, 0],
    ] as const)
      expect(tile(total, size, max), `${total}/${size}/${max}`).toBe(max);
    expect(imagePagesShare(100, { first: 1, last: 0, total: 50 })).toBe(0);
  });

  it('reports encrypted, corrupt, empty and blank files as unreadable', async () => {
    const encrypted = await failureOf(preparePdf(fx.encryptedPdf(), base));
    expect(encrypted.code).toBe('SOURCE_UNREADABLE');
    expect(encrypted.message).toMatch(/password/);
    for (const bytes of [
      fx.corruptPdf(),
      await fx.emptyPdf(),
      await fx.blankPdf(3),
      Buffer.alloc(0),
    ]) {
      expect((await failureOf(preparePdf(bytes, base))).code).toBe('SOURCE_UNREADABLE');
    }
  });

  it('says a scanned file has no text in text mode', async () => {
    const err = await failureOf(
      preparePdf(await fx.scannedPdf(['Scan']), { ...base, mode: 'text' }),
    );
    expect(err.code).toBe('SOURCE_UNREADABLE');
    expect(err.message).toMatch(/scanned/);
  });

  it('refuses another kind of file sent as a PDF', async () => {
    const lying = await fx.lyingFile();
    expect(lying.contentType).toBe('application/pdf');
    expect((await failureOf(preparePdf(lying.body, base))).code).toBe('SOURCE_UNSUPPORTED');
  });

  it('leaves the caller’s bytes intact', async () => {
    const bytes = await fx.textPdf(['Some text that is long enough to use.']);
    const copy = Buffer.from(bytes);
    await preparePdf(bytes, base);
    expect(bytes.equals(copy)).toBe(true);
  });
});
