/**
 * Word documents in Japanese, Chinese and Korean through the real converter and PDF reader:
 * read as written, and laid out with a CJK font (the system packages' Noto CJK), so that page
 * previews draw the characters instead of empty boxes.
 */
import { describe, expect, it } from 'vitest';
import { CJK_LINES, flatTextDocument, officeFile } from '@xt/testkit/fixtures';
import { textDocumentReader, textOf } from './test-reader.ts';

const reader = textDocumentReader(process.env);

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
