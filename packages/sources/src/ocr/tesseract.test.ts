import { describe, expect, it } from 'vitest';
import { textImagePng } from '@xt/testkit/fixtures';
import { ocrLines } from './tesseract.ts';

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
});
