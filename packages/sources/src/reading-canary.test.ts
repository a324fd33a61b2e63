/**
 * What source reading makes of fixed inputs, as a hash: when a change to the readers changes
 * it, the same bytes now reach the model differently, and answers reused from before the change
 * would not be what this release gives (docs/reuse.md#the-pipeline-version). Raise
 * SOURCE_READING_VERSION in packages/model/src/pipeline-version.ts with such a change, then
 * record the new hash below. Only readers whose output does not depend on the machine
 * (text, HTML, a PDF's text layer) are hashed; page rendering and OCR are not.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { textPdf } from '@xt/testkit/fixtures';
import { runTask } from './prep-pool/run-task.ts';

const RECORDED = 'fe178a2590fb6d8c';

async function readings(): Promise<unknown[]> {
  const text = Buffer.from('Invoice INV-7\n\nTotal due: 12.50 EUR\n\n\nPaid: no\r\n', 'utf8');
  const html = Buffer.from(
    '<h1>Invoice</h1><p>Total <b>12.50</b> EUR</p><table><tr><th>SKU</th><th>Amount</th></tr><tr><td>A-1</td><td>3.00</td></tr></table><ul><li>one</li><li>two</li></ul>',
    'utf8',
  );
  const pdf = await textPdf(['Invoice INV-7 from Umbrella Corp', 'Total due 4321.50 EUR']);
  const pdfOpts = {
    model: 'gpt-4.1' as const,
    mode: 'auto' as const,
    maxPages: 10,
    maxImagePages: 10,
    maxImagePixels: 50_000_000,
  };
  return Promise.all([
    runTask({ kind: 'text', bytes: text, contentType: null }),
    runTask({ kind: 'text', bytes: text, contentType: 'text/plain', citations: true }),
    runTask({ kind: 'text', bytes: html, contentType: 'text/html', citations: true }),
    runTask({ kind: 'pdf', bytes: pdf, opts: pdfOpts }),
    runTask({ kind: 'pdf', bytes: pdf, opts: { ...pdfOpts, grounding: true } }),
  ]);
}

describe('what source reading produces', () => {
  it('is what it was when SOURCE_READING_VERSION was last raised', async () => {
    const hash = createHash('sha256')
      .update(JSON.stringify(await readings()))
      .digest('hex')
      .slice(0, 16);
    expect(
      hash,
      'source reading changed what the same bytes become: raise SOURCE_READING_VERSION in packages/model/src/pipeline-version.ts, then record this hash in RECORDED',
    ).toBe(RECORDED);
  });
});
