import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CJK_LINES, textImagePng } from '@xt/testkit/fixtures';
import { linesFromTsv, ocrLines } from './tesseract.ts';

const size = { width: 1275, height: 210 };

describe('ocrLines', () => {
  it('reads the lines of an image in order, each box on its own line', async () => {
    const png = await textImagePng(['Invoice INV-77', 'Total due 12.50 EUR', 'Thank you']);
    const lines = await ocrLines(png, size, { timeoutMs: 30_000 });
    expect(lines.map((l) => l.text)).toEqual([
      'Invoice INV-77',
      'Total due 12.50 EUR',
      'Thank you',
    ]);
    // Each word where it stands in its line, with Tesseract's confidence in its reading.
    for (const line of lines) {
      expect(line.words!.map((w) => line.text.slice(w.start, w.end)).join(' ')).toBe(line.text);
      for (const w of line.words!) expect(w.confidence).toBeGreaterThan(0.5);
    }
    const tops = lines.map((l) => l.box[1]);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    for (const { box } of lines) {
      expect(box[0]).toBeLessThan(box[2]);
      expect(box[1]).toBeLessThan(box[3]);
      expect(box[3]).toBeLessThanOrEqual(1);
    }
  });

  it('gives no lines, not a failure, when Tesseract cannot run', async () => {
    const png = await textImagePng(['Invoice INV-77']);
    const lines = await ocrLines(png, size, { timeoutMs: 30_000, command: 'no-such-tesseract' });
    expect(lines).toEqual([]);
  });

  it('reads a Japanese scan with the languages it is given (OCR_LANGUAGES)', async () => {
    const png = await textImagePng([...CJK_LINES.ja], { fontSize: 36 });
    const { width = 0, height = 0 } = await sharp(png).metadata();
    const lines = await ocrLines(png, { width, height }, { timeoutMs: 30_000, languages: 'jpn' });
    const texts = lines.map((l) => l.text);
    const at = CJK_LINES.ja.map((line) => texts.indexOf(line));
    expect(
      at.every((i) => i >= 0),
      texts.join(' | '),
    ).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });
});

describe('linesFromTsv', () => {
  const row = (line: number, left: number, text: string) =>
    ['5', '1', '1', '1', String(line), '1', String(left), '10', '20', '10', '90', text].join('\t');

  it('joins words of scripts written without spaces as written, others with a space', () => {
    const tsv = [
      'level',
      row(1, 0, '株式'),
      row(1, 20, '会社'),
      row(1, 40, 'テスト'),
      row(2, 0, '合計'),
      row(2, 20, '12,000'),
      row(2, 40, '円'),
      row(3, 0, '주식회사'),
      row(3, 20, '테스트'),
      row(4, 0, 'Total'),
      row(4, 20, 'due'),
    ].join('\n');
    expect(linesFromTsv(tsv, { width: 100, height: 100 }).map((l) => l.text)).toEqual([
      '株式会社テスト',
      '合計 12,000 円',
      '주식회사 테스트',
      'Total due',
    ]);
  });
});

describe('linesFromTsv word confidences', () => {
  const word = (line: number, left: number, conf: string, text: string) =>
    ['5', '1', '1', '1', String(line), '1', String(left), '10', '20', '10', conf, text].join('\t');

  it('keeps each word’s place in its line and Tesseract’s confidence as a fraction', () => {
    const tsv = [
      'level',
      word(1, 0, '96.480774', 'Cable'),
      word(1, 20, '91', 'ties'),
      word(1, 40, '38.5', '8'),
      word(2, 0, '-1', '株式'),
      word(2, 20, '88', '会社'),
    ].join('\n');
    const [first, second] = linesFromTsv(tsv, { width: 100, height: 100 });
    expect(first).toMatchObject({
      text: 'Cable ties 8',
      words: [
        { start: 0, end: 5, confidence: 0.965 },
        { start: 6, end: 10, confidence: 0.91 },
        { start: 11, end: 12, confidence: 0.385 },
      ],
    });
    expect(second).toMatchObject({
      text: '株式会社',
      words: [
        { start: 0, end: 2, confidence: 0 },
        { start: 2, end: 4, confidence: 0.88 },
      ],
    });
  });
});
