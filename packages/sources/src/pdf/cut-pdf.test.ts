import { describe, expect, it } from 'vitest';
import * as fx from '@xt/testkit/fixtures';
import { cutPdf } from './cut-pdf.ts';
import { openPdf } from './open-pdf.ts';
import { preparePdf, type PdfOptions } from './prepare-pdf.ts';

const base: PdfOptions = {
  model: 'gpt-4.1',
  mode: 'auto',
  maxPages: 100,
  maxImagePages: 100,
  maxImagePixels: 50_000_000,
  grounding: true,
};

const pageCount = async (pdf: Uint8Array) => {
  const { doc, close } = await openPdf(pdf, { maxImagePixels: 1e6 });
  try {
    return doc.numPages;
  } finally {
    await close();
  }
};

describe('cutPdf: a PDF per page window', () => {
  const texts = Array.from({ length: 7 }, (_, i) => `Page ${i + 1} of seven: value ${100 + i}.`);

  it('holds only the window’s pages, read as the document’s pages', async () => {
    const whole = await fx.textPdf(texts);
    const windows = [
      { first: 1, last: 3, total: 7 },
      { first: 4, last: 5, total: 7 },
      { first: 6, last: 7, total: 7 },
    ];
    const cut = await cutPdf(new Uint8Array(whole), {
      windows,
      notesPages: false,
      maxImagePixels: 1e6,
    });
    expect(await Promise.all(cut.map(pageCount))).toEqual([3, 2, 2]);
    for (const [i, w] of windows.entries()) {
      const own = await preparePdf(cut[i]!, { ...base, window: w });
      const fromWhole = await preparePdf(new Uint8Array(whole), {
        ...base,
        pages: { first: w.first, last: w.last },
      });
      // The same parts, grounding and count as the window read from the whole document.
      expect(own).toEqual(fromWhole);
      expect(own.parts.map((p) => p.unit)).toEqual(
        Array.from({ length: w.last - w.first + 1 }, (_, k) => w.first + k),
      );
    }
  });

  it('takes a presentation’s notes pages with their slides', async () => {
    // Four slides, then their four notes pages, as LibreOffice exports a deck with notes.
    const deck = await fx.textPdf([
      ...['one', 'two', 'three', 'four'].map((s) => `Slide ${s}`),
      ...['one', 'two', 'three', 'four'].map((s) => `Notes of slide ${s}`),
    ]);
    const [second] = await cutPdf(new Uint8Array(deck), {
      windows: [{ first: 3, last: 4, total: 4 }],
      notesPages: true,
      maxImagePixels: 1e6,
    });
    const { doc, close } = await openPdf(second!, { maxImagePixels: 1e6 });
    try {
      const firstLine = async (n: number) => {
        const content = await (await doc.getPage(n)).getTextContent();
        return content.items.map((item) => ('str' in item ? item.str : '')).join('');
      };
      expect(doc.numPages).toBe(4);
      expect(await Promise.all([1, 2, 3, 4].map(firstLine))).toEqual([
        'Slide three',
        'Slide four',
        'Notes of slide three',
        'Notes of slide four',
      ]);
    } finally {
      await close();
    }
  });

  it('refuses a window past the document’s end', async () => {
    const pdf = await fx.textPdf(texts);
    await expect(
      cutPdf(new Uint8Array(pdf), {
        windows: [{ first: 6, last: 8, total: 8 }],
        notesPages: false,
        maxImagePixels: 1e6,
      }),
    ).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});
