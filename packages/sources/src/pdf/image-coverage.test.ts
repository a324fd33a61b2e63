import { describe, expect, it } from 'vitest';
import * as fx from '@xt/testkit/fixtures';
import { imageCoverage } from './image-coverage.ts';
import { openPdf } from './open-pdf.ts';

async function coverages(bytes: Buffer): Promise<number[]> {
  const { doc, close } = await openPdf(bytes, { maxImagePixels: 50_000_000 });
  try {
    const out: number[] = [];
    for (let n = 1; n <= doc.numPages; n++) out.push(await imageCoverage(await doc.getPage(n)));
    return out;
  } finally {
    await close();
  }
}

describe('imageCoverage', () => {
  it('measures the share of the page painted by raster images', async () => {
    expect(await coverages(await fx.textPdf(['Only text here.']))).toEqual([0]);
    const [scan] = await coverages(await fx.scannedPdf(['A full-page scan']));
    expect(scan).toBeCloseTo(1, 2);
    const [photo, logo] = await coverages(await fx.textWithPicturesPdf());
    expect(photo).toBeCloseTo((450 * 338) / (612 * 792), 2);
    expect(logo).toBeCloseTo((40 * 40) / (612 * 792), 3);
  });
});
