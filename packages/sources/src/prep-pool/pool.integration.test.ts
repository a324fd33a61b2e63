import { afterEach, describe, expect, it } from 'vitest';
import * as fx from '@xt/testkit/fixtures';
import type { PdfOptions } from '../pdf/prepare-pdf.ts';
import { createPrepPool, type PrepPool } from './index.ts';
import { failureOf } from '@xt/testkit';

const pdfOpts: PdfOptions = {
  model: 'gpt-4.1',
  mode: 'auto',
  maxPages: 100,
  maxImagePages: 100,
  maxImagePixels: 50_000_000,
};
const imageOpts = { model: 'gpt-4.1', maxPixels: 50_000_000 } as const;

let pool: PrepPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('prep pool', () => {
  it('prepares images and PDFs in its processes', async () => {
    pool = createPrepPool({ size: 2, taskTimeoutMs: 60_000 });
    const [image, pdf] = await Promise.all([
      pool.runPrep({
        kind: 'image',
        bytes: await fx.jpegImage({ width: 3000, height: 2000 }),
        opts: imageOpts,
      }),
      pool.runPrep({
        kind: 'pdf',
        bytes: await fx.mixedPdf([{ text: 'Digital page with text.' }, { scan: 'Scan' }]),
        opts: pdfOpts,
      }),
    ]);
    expect(image.parts[0]).toMatchObject({
      kind: 'image',
      width: 1152,
      height: 768,
      detail: 'high',
    });
    expect(pdf).toMatchObject({ pageCount: 2, textPages: 1, imagePages: 1 });
    expect(pdf.parts.map((p) => p.kind)).toEqual(['text', 'text', 'image']);
  });

  it('accepts a document’s tracked changes in a process, sending back only what changed', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const redlined = await pool.runPrep({
      kind: 'accept-changes',
      bytes: fx.redlinedDocx(),
      format: 'docx',
    });
    expect(redlined.changes).toBe(6);
    expect(Buffer.from(redlined.bytes).subarray(0, 2).toString()).toBe('PK');
    const plain = await pool.runPrep({
      kind: 'accept-changes',
      bytes: await fx.officeFile(fx.flatTextDocument({ paragraphs: ['No changes'] }), 'docx'),
      format: 'docx',
    });
    expect(plain).toEqual({ bytes: new Uint8Array(), changes: 0 });
  });

  it('carries failures back with their contract code', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const encrypted = await failureOf(
      pool.runPrep({ kind: 'pdf', bytes: fx.encryptedPdf(), opts: pdfOpts }),
    );
    expect(encrypted.code).toBe('SOURCE_UNREADABLE');
    expect(encrypted.message).toMatch(/password/);
    const bomb = await failureOf(
      pool.runPrep({ kind: 'image', bytes: fx.pixelBombPng(), opts: imageOpts }),
    );
    expect(bomb.code).toBe('SOURCE_TOO_LARGE');
    expect(bomb.retryable).toBe(false);
    const huge = await failureOf(
      pool.runPrep({ kind: 'pdf', bytes: fx.hugePdf(5000), opts: pdfOpts }),
    );
    expect(huge.code).toBe('SOURCE_TOO_LARGE');
    expect(pool.stats.threads).toBe(1); // the same process survived all three
  });

  it('keeps the event loop free while pages are rasterised', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const pages = Array.from({ length: 8 }, (_, i) => `Scanned page ${i + 1} of a long contract`);
    const pdf = await fx.scannedPdf(pages);
    let ticks = 0;
    const interval = setInterval(() => ticks++, 1);
    try {
      const result = await pool.runPrep({
        kind: 'pdf',
        bytes: pdf,
        opts: { ...pdfOpts, model: 'gpt-4.1-mini' },
      });
      expect(result.imagePages).toBe(8);
    } finally {
      clearInterval(interval);
    }
    expect(ticks).toBeGreaterThan(50);
  });

  it('runs no more processes than its size and queues the rest', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const bytes = await fx.pngImage({ width: 200, height: 100 });
    const runs = [1, 2, 3].map(() =>
      pool!.runPrep({ kind: 'image', bytes: Buffer.from(bytes), opts: imageOpts }),
    );
    expect(pool.stats).toEqual({ threads: 1, busy: 1, queued: 2 });
    const results = await Promise.all(runs);
    expect(results).toHaveLength(3);
    expect(pool.stats).toEqual({ threads: 1, busy: 0, queued: 0 });
  });

  it('kills a process that overruns its deadline and carries on with a fresh one', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const pdf = await fx.scannedPdf(['slow page']);
    const late = await failureOf(
      pool.runPrep({ kind: 'pdf', bytes: Buffer.from(pdf), opts: pdfOpts }, { timeoutMs: 1 }),
    );
    expect(late.code).toBe('TIMEOUT');
    expect(late.retryable).toBe(true);
    const ok = await pool.runPrep({ kind: 'pdf', bytes: Buffer.from(pdf), opts: pdfOpts });
    expect(ok.imagePages).toBe(1);
    expect(pool.stats.threads).toBe(1);
  });

  it('copies the bytes to its process, leaving the caller’s as they were', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const png = await fx.pngImage({ width: 50, height: 50 });
    const owned = new Uint8Array(png);
    await pool.runPrep({ kind: 'image', bytes: owned, opts: imageOpts });
    expect(Buffer.from(owned).equals(png)).toBe(true);
    const backing = new Uint8Array(png.length + 16);
    backing.set(png, 8);
    const view = backing.subarray(8, 8 + png.length);
    const result = await pool.runPrep({ kind: 'image', bytes: view, opts: imageOpts });
    expect(result.parts).toHaveLength(1);
    expect(backing.byteLength).toBe(png.length + 16);
  });

  it('warms every process up front', async () => {
    pool = createPrepPool({ size: 2, taskTimeoutMs: 60_000 });
    await pool.warm();
    expect(pool.stats).toEqual({ threads: 2, busy: 0, queued: 0 });
    const result = await pool.runPrep({
      kind: 'image',
      bytes: await fx.pngImage({ width: 10, height: 10 }),
      opts: imageOpts,
    });
    expect(result.parts).toHaveLength(1);
    expect(pool.stats.threads).toBe(2);
  });

  it('blames a process that cannot even load on itself, not on the source', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000, maxHeapMb: 8 });
    const err = await failureOf(
      pool.runPrep({
        kind: 'image',
        bytes: await fx.pngImage({ width: 10, height: 10 }),
        opts: imageOpts,
      }),
    );
    expect(err.code).toBe('INTERNAL');
    expect(err.retryable).toBe(true);
    await expect(pool.warm()).rejects.toThrow();
  });

  it('treats a warm-up cut short by close as no failure', async () => {
    const closing = createPrepPool({ size: 2, taskTimeoutMs: 60_000 });
    const warming = closing.warm();
    await closing.close();
    await expect(warming).resolves.toBeUndefined();
  });

  it('rejects queued work when closed', async () => {
    const closing = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const bytes = await fx.scannedPdf(['page']);
    const running = failureOf(
      closing.runPrep({ kind: 'pdf', bytes: Buffer.from(bytes), opts: pdfOpts }),
    );
    const queued = failureOf(
      closing.runPrep({ kind: 'pdf', bytes: Buffer.from(bytes), opts: pdfOpts }),
    );
    await closing.close();
    expect((await running).code).toBe('INTERNAL');
    expect((await queued).code).toBe('INTERNAL');
    expect(
      (await failureOf(closing.runPrep({ kind: 'pdf', bytes, opts: pdfOpts }))).retryable,
    ).toBe(true);
  });
});

describe('the memory bound of a prep process', () => {
  it('fails a PDF that inflates past it as too large, and carries on', async () => {
    // Under a thread's heap cap pdf.js inflated all of it (a GiB outside the heap, 30 s) and
    // answered that the page had no text; a 4 MiB file would have asked for 4 GiB.
    pool = createPrepPool({ size: 1, taskTimeoutMs: 120_000, maxMemoryMb: 1024 });
    const err = await failureOf(
      pool.runPrep({ kind: 'pdf', bytes: fx.inflatingPdf(1024), opts: pdfOpts }),
    );
    expect(err.code).toBe('SOURCE_TOO_LARGE');
    expect(err.retryable).toBe(false);
    const next = await pool.runPrep({
      kind: 'pdf',
      bytes: await fx.textPdf(['Still here']),
      opts: pdfOpts,
    });
    expect(next.textPages).toBe(1);
    expect(pool.stats).toEqual({ threads: 1, busy: 0, queued: 0 });
  });

  it('leaves a PDF that inflates within it alone', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 120_000, maxMemoryMb: 1024 });
    const err = await failureOf(
      pool.runPrep({ kind: 'pdf', bytes: fx.inflatingPdf(16), opts: pdfOpts }),
    );
    // Spaces only: read to the end, nothing on the page.
    expect(err.code).toBe('SOURCE_UNREADABLE');
  });
});

describe('text in the prep processes', () => {
  const text = (source: string, contentType: string | null = null) => ({
    kind: 'text' as const,
    bytes: Buffer.from(source, 'utf8'),
    contentType,
  });

  it('reads typed text and uploaded HTML', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const typed = await pool.runPrep(text('Total: 12 EUR\n\nDue: today'));
    expect(typed.parts).toEqual([{ kind: 'text', text: 'Total: 12 EUR\n\nDue: today', unit: 1 }]);
    const html = await pool.runPrep(text('<h1>Invoice</h1><p>Total <b>12</b></p>', 'text/html'));
    expect(html.parts[0]).toMatchObject({ kind: 'text', text: '# Invoice\n\nTotal **12**' });
  });

  it('fails HTML nested deeper than the parser reaches as unreadable, unretried', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const deep = `${'<div>'.repeat(60_000)}x${'</div>'.repeat(60_000)}`;
    const err = await failureOf(pool.runPrep(text(deep, 'text/html')));
    expect(err.code).toBe('SOURCE_UNREADABLE');
    expect(err.retryable).toBe(false);
    // The process survived it.
    expect((await pool.runPrep(text('still here'))).parts).toHaveLength(1);
  });

  it('fails a text task past its deadline as a timeout that is not retried', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const big = `<p>${'word '.repeat(400_000)}</p>`;
    const err = await failureOf(pool.runPrep(text(big, 'text/html'), { timeoutMs: 1 }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.retryable).toBe(false);
  });

  it('reads a <pre> of 200,000 spaces as a file with no text', async () => {
    pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
    const err = await failureOf(
      pool.runPrep(text(`<pre>${' '.repeat(200_000)}</pre>`, 'text/html'), { timeoutMs: 20_000 }),
    );
    expect(err.code).toBe('SOURCE_UNREADABLE');
    expect(err.message).toMatch(/no text/);
  });
});
