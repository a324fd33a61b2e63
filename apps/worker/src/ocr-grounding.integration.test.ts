import type { Citation, CitationBox } from '@xt/contract';
import { groundOutput, leaves, OCR_UNCERTAIN_BELOW } from '@xt/grounding';
import { prepareImage } from '@xt/sources';
import { invoiceScan, makeInvoices } from '@xt/testkit/datasets';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/*
 * What the worker does for a scanned invoice with citations, through a real Tesseract run: the
 * image prepared with OCR (its lines and their words' confidences kept), then every value of an
 * answer grounded in them (docs/citations.md).
 */

const SEED = 2026;
const [invoice] = makeInvoices(1, SEED);
const MODEL_PROBABILITY = 0.99;

async function grounded(output: unknown, scan?: Buffer) {
  const source = await prepareImage(scan ?? (await invoiceScan(invoice!, SEED)), {
    model: 'gpt-4.1',
    maxPixels: 50_000_000,
    ocr: { timeoutMs: 60_000 },
  });
  // A model sure of every value: what the citations' figures then say is the OCR's.
  const probabilities = new Map<string, number>();
  for (const { pointer } of leaves(output)) probabilities.set(pointer, MODEL_PROBABILITY);
  const { citations } = groundOutput(
    { output, truncated: [], annotations: { quotes: new Map(), probabilities } },
    source,
    true,
  );
  return { source, citations: citations! };
}

const overlap = (a: CitationBox, b: CitationBox) =>
  Math.min(a[2], b[2]) > Math.max(a[0], b[0]) && Math.min(a[3], b[3]) > Math.max(a[1], b[1]);

describe('a scanned invoice read with Tesseract', () => {
  it('keeps each OCR word’s confidence and carries it into the citations', async () => {
    const { source, citations } = await grounded(invoice);
    const pages = source.grounding?.kind === 'pages' ? source.grounding.pages : [];
    const words = pages.flatMap((p) => p.lines.flatMap((l) => l.words ?? []));
    expect(words.length).toBeGreaterThan(20);
    const found = Object.values(citations).filter((c) => c.grounded);
    expect(found.length).toBeGreaterThan(Object.keys(citations).length * 0.8);
    for (const c of found) {
      expect(c.ocrConfidence).toBeGreaterThan(0);
      expect(c.confidence).toBe(Math.min(MODEL_PROBABILITY, c.ocrConfidence!));
      expect(c.reading === 'uncertain').toBe(c.ocrConfidence! < OCR_UNCERTAIN_BELOW);
    }
  });

  it('never cites a row’s value on another row’s cell, even when the answer repeats it', async () => {
    // The second row's quantity answered as the first row's, as a misread would have it.
    const lines = invoice!.lines.map((l) => ({ ...l }));
    const other = lines.findIndex((l, k) => k > 0 && l.quantity !== lines[0]!.quantity);
    lines[other]!.quantity = lines[0]!.quantity;
    const { citations } = await grounded({ ...invoice, lines });
    const rowCitations = Object.entries(citations).filter(([p]) => p.startsWith('/lines/'));
    const item = (p: string) => p.split('/')[2];
    const clashes: string[] = [];
    for (const [p, a] of rowCitations)
      for (const [q, b] of rowCitations)
        if (item(p)! < item(q)! && a.boxes.some((x) => b.boxes.some((y) => overlap(x, y))))
          clashes.push(`${p} ${q}`);
    expect(clashes).toEqual([]);
    const quantity: Citation = citations[`/lines/${other}/quantity`]!;
    const description = citations[`/lines/${other}/description`]!;
    if (quantity.grounded) {
      // Only where its own row says it (another figure of that row read alike).
      const [, y0, , y1] = quantity.boxes[0]!;
      expect(Math.abs(y0 - description.boxes[0]![1])).toBeLessThan((y1 - y0) / 2);
    }
  });
  it('reads a quantity column of lone short numbers on a page-sized scan, and finds every quantity', async () => {
    // A shipped scan whose quantity column Tesseract dropped when it assumed 70 dpi.
    const root = new URL('../../../datasets/invoices-scanned/', import.meta.url);
    const scan = await readFile(new URL('cases/INV-2026-1005.jpg', root));
    const expected = JSON.parse(
      await readFile(new URL('expected/INV-2026-1005.json', root), 'utf8'),
    ) as { lines: { quantity: number }[] };
    const { citations } = await grounded(expected, scan);
    const quantities = expected.lines.map((_, k) => citations[`/lines/${k}/quantity`]);
    expect(quantities.filter((c) => c?.grounded)).toHaveLength(expected.lines.length);
  });
});
