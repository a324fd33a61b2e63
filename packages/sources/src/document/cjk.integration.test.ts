/**
 * Word documents in Japanese, Chinese and Korean through the real converter and PDF reader:
 * read as written, and laid out with a CJK font (the system packages' Noto CJK), so that page
 * previews draw the characters instead of empty boxes.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPart } from '@xt/contract';
import { CJK_LINES, flatTextDocument, officeFile } from '@xt/testkit/fixtures';
import { preparePdf } from '../pdf/prepare-pdf.ts';
import { createDocumentConverter } from './converter/converter.ts';
import { createDocumentReader } from './prepare-document.ts';

const reader = createDocumentReader({
  converter: createDocumentConverter({
    memoryMb: 2048,
    timeoutMs: 180_000,
    concurrency: 1,
    environment: process.env,
  }),
  archive: { maxExpandedBytes: 100 * 1024 * 1024, maxEntries: 10_000, maxRatio: 200 },
  readPdf: (pdf, opts, converted) =>
    preparePdf(pdf, {
      model: opts.model,
      mode: 'text',
      maxPages: 10,
      maxImagePages: 10,
      maxImagePixels: 50_000_000,
      converted,
    }),
});

const textOf = (parts: ContentPart[]) =>
  parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');

describe('a DOCX in Japanese, Chinese and Korean', () => {
  it('reads as written, and its PDF is drawn with a CJK font', async () => {
    const lines = [...CJK_LINES.ja, ...CJK_LINES.zh, ...CJK_LINES.ko];
    const docx = await officeFile(flatTextDocument({ paragraphs: lines }), 'docx');
    const signal = AbortSignal.timeout(300_000);
    const source = await reader.prepareDocumentBytes(docx, 'docx', { model: 'gpt-4.1', signal });
    const text = textOf(source.parts);
    for (const line of lines) expect(text).toContain(line);

    const { pdf } = await reader.convertDocumentBytes(docx, 'docx', signal);
    // LibreOffice writes no object streams: the fonts' names are in the file as they are.
    const fonts = [...pdf.toString('latin1').matchAll(/\/BaseFont\s*\/([^\s/<>[\]]+)/g)].map(
      (m) => m[1]!,
    );
    expect(
      fonts.some((f) => /Noto(Sans|Serif)CJK/.test(f)),
      fonts.join(', '),
    ).toBe(true);
  }, 300_000);
});
