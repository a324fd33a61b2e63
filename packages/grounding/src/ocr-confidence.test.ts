import type { GroundingLine, GroundingSource } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { buildCitations, GROUNDED_ONLY_CONFIDENCE } from './index.ts';

/** An OCR line from words and their confidences, joined by spaces. */
function ocrLine(words: [string, number][], y: number): GroundingLine {
  let at = 0;
  const placed = words.map(([text, confidence]) => {
    const word = { start: at, end: at + text.length, confidence };
    at += text.length + 1;
    return word;
  });
  return {
    text: words.map(([text]) => text).join(' '),
    box: [0.1, y, 0.8, y + 0.015],
    words: placed,
  };
}

const page = (lines: GroundingLine[], ocr: boolean): GroundingSource => ({
  kind: 'pages',
  pages: [{ page: 1, lines, ...(ocr ? { ocr: true } : {}) }],
});

const scan = page(
  [
    ocrLine(
      [
        ['Invoice', 0.96],
        ['INV-2026-1001', 0.93],
      ],
      0.1,
    ),
    ocrLine(
      [
        ['Cable', 0.95],
        ['ties', 0.94],
        ['8', 0.41],
        ['12.00', 0.9],
        ['96.00', 0.92],
      ],
      0.3,
    ),
  ],
  true,
);
const output = {
  number: 'INV-2026-1001',
  lines: [{ description: 'Cable ties', quantity: 8, unit_price: 12, amount: 96 }],
};
const probabilities = new Map([
  ['/number', 0.99],
  ['/lines/0/description', 0.9],
  ['/lines/0/quantity', 0.98],
  ['/lines/0/unit_price', 0.97],
  ['/lines/0/amount', 0.6],
]);

describe('a value found on OCR words', () => {
  const { citations } = buildCitations({ output, source: scan, probabilities });

  it('carries the lowest confidence of the words its quote covers, not the line’s', () => {
    expect(citations['/lines/0/description']).toMatchObject({ quote: 'Cable ties' });
    expect(citations['/lines/0/description']!.ocrConfidence).toBe(0.94);
    expect(citations['/lines/0/amount']!.ocrConfidence).toBe(0.92);
  });

  it('is no surer than its reading: confidence is the lower of the model’s and the OCR’s', () => {
    expect(citations['/lines/0/quantity']!.confidence).toBe(0.41);
    expect(citations['/lines/0/unit_price']!.confidence).toBe(0.9);
    // The model's own doubt stays where it is the lower.
    expect(citations['/lines/0/amount']!.confidence).toBe(0.6);
  });

  it('is an uncertain reading where the OCR was unsure of its words, still found', () => {
    expect(citations['/lines/0/quantity']).toMatchObject({
      grounded: true,
      quote: '8',
      reading: 'uncertain',
      ocrConfidence: 0.41,
    });
    for (const p of ['/number', '/lines/0/description', '/lines/0/amount'])
      expect(citations[p]!.reading, p).toBeUndefined();
  });

  it('caps the grounding-only figure too, for a model without token probabilities', () => {
    const built = buildCitations({ output, source: scan, groundingOnly: true });
    expect(built.citations['/lines/0/quantity']!.confidence).toBe(0.41);
    expect(built.citations['/number']!.confidence).toBe(GROUNDED_ONLY_CONFIDENCE);
  });
});

describe('a value found in a text layer', () => {
  it('has no OCR confidence and keeps the model’s figure', () => {
    const lines = [{ text: 'Cable ties 8 12.00 96.00', box: [0.1, 0.3, 0.8, 0.315] }] as const;
    const { citations } = buildCitations({
      output: { lines: output.lines },
      source: page(
        lines.map((l) => ({ text: l.text, box: [...l.box] as GroundingLine['box'] })),
        false,
      ),
      probabilities,
    });
    const quantity = citations['/lines/0/quantity']!;
    expect(quantity).toMatchObject({ grounded: true, confidence: 0.98 });
    expect('ocrConfidence' in quantity || 'reading' in quantity).toBe(false);
  });
});
