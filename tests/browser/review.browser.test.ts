/**
 * The review view in a real browser (docs/dashboard.md#review-view): run an extraction with
 * citations from the form, then review a text source (quotes highlighted at their offsets) and a
 * PDF (boxes over the stored page preview, or over a blank page without one), with values found
 * nowhere marked, counted and filterable, at desktop and phone width. Real API, worker,
 * PostgreSQL, Redis and Chromium; the model stand-in answers.
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@xt/db';
import { openTestPool, startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { placedTextPdf, textPdf } from '@xt/testkit/fixtures';
import { startTestWorker } from '@xt/api/testing';
import {
  readmeScreenshot,
  screenshots,
  startDashboard,
  type DashboardFixture,
} from '../support/dashboard.ts';
import { storeTextPdfPreview, textPdfLine } from '../support/review.ts';

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;
let db: pg.Pool;
let handle: DbHandle;
let schemaId: string;

const INVOICE = {
  name: 'Supplier invoice',
  structure: {
    type: 'object',
    properties: {
      vendor: { type: 'string' },
      invoice_number: { type: 'string' },
      lines: {
        type: 'array',
        items: {
          type: 'object',
          properties: { item: { type: 'string' }, amount: { type: 'number' } },
        },
      },
      total: { type: 'number' },
      currency: { type: 'string' },
      po_number: { type: 'string' },
    },
  },
};

const TEXT = [
  'Northwind Office Supplies GmbH',
  'Invoice INV-2026-0417',
  'Ergonomic office chair ........ 867.00 EUR',
  'A4 copy paper, 500 sheets ...... 57.60 EUR',
  'Total due: 924.60 EUR',
].join('\n');

const OUTPUT = {
  vendor: 'Northwind Office Supplies GmbH',
  invoice_number: 'INV-2026-0417',
  lines: [
    { item: 'Ergonomic office chair', amount: 867 },
    { item: 'A4 copy paper, 500 sheets', amount: 57.6 },
  ],
  total: 924.6,
  currency: 'USD',
  po_number: null,
};

beforeAll(async () => {
  model = await startModelStandIn();
  dash = await startDashboard();
  worker = await startTestWorker(dash.api, model.url);
  db = openTestPool(dash.api.database.url);
  handle = createDb(dash.api.database.url, { max: 1 });
  const created = await dash.api.request('POST', '/v1/schemas', { json: INVOICE });
  schemaId = created.body.data.id;
});
afterAll(async () => {
  await worker?.stop();
  await handle?.close();
  await db?.end();
  await dash?.close();
  await model?.close();
});

const poll = { timeout: 30_000 };

/** Where each value sits in TEXT, as the service reports it; `currency` is found nowhere. */
function textCitations() {
  const at = (quote: string, confidence: number) => {
    const start = TEXT.indexOf(quote);
    return {
      grounded: true,
      quote,
      page: null,
      boxes: [],
      start,
      end: start + quote.length,
      confidence,
    };
  };
  return {
    '/vendor': at('Northwind Office Supplies GmbH', 0.99),
    '/invoice_number': at('INV-2026-0417', 0.98),
    '/lines/0/item': at('Ergonomic office chair', 0.97),
    '/lines/0/amount': at('867.00', 0.95),
    '/lines/1/item': at('A4 copy paper, 500 sheets', 0.96),
    '/lines/1/amount': at('57.60', 0.94),
    '/total': at('924.60', 0.97),
    '/currency': {
      grounded: false,
      quote: null,
      page: null,
      boxes: [],
      start: null,
      end: null,
      confidence: 0.18,
    },
  };
}

async function completeWith(
  json: Record<string, unknown>,
  citations: object,
  extra: { warnings?: object[]; pageImages?: Record<string, string>; output?: object } = {},
): Promise<string> {
  model.behave({ output: extra.output ?? OUTPUT });
  const res = await dash.api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, citations: true, ...json },
  });
  expect(res.status).toBe(200);
  const id = res.body.data.id as string;
  // What the worker stores with a completion, seeded so the view is tested against exact values.
  await db.query(
    'update extractions set citations = $2, warnings = $3, page_images = $4 where id = $1',
    [
      id,
      JSON.stringify(citations),
      extra.warnings ? JSON.stringify(extra.warnings) : null,
      extra.pageImages ? JSON.stringify(extra.pageImages) : null,
    ],
  );
  return id;
}

it('runs an extraction with citations from the form and shows the review view', async () => {
  model.behave({ output: OUTPUT });
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/extractions/new');
  await page.getByLabel('Schema').selectOption({ label: INVOICE.name });
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill(TEXT);
  await page.getByLabel('Cite the source for every value').check();
  await screenshots(page, 'extraction-run-citations');
  await page.getByRole('button', { name: 'Run extraction' }).click();
  await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  await expect.poll(() => page.getByTestId('status').textContent(), poll).toBe('completed');
  const id = page.url().split('/').pop()!;
  const row = await db.query('select citations_requested from extractions where id = $1', [id]);
  expect(row.rows[0]).toEqual({ citations_requested: true });
  // The schema by its name, linking to it.
  const schema = page.getByTestId('schema-name');
  expect(await schema.textContent()).toBe(INVOICE.name);
  expect(await schema.getAttribute('href')).toBe(`/dashboard/schemas/${schemaId}`);
  // Every leaf of the output is listed, null included, with what the worker found.
  const review = page.getByRole('region', { name: 'Review' });
  await review.waitFor();
  expect(await review.locator('tbody tr').count()).toBe(9);
  expect(await page.getByTestId('review-summary').textContent()).toMatch(
    /8 values checked.*7 found.*1 not found/,
  );
  expect(await review.locator('tr.row--ungrounded').textContent()).toContain('currency');
  await review.getByRole('button', { name: 'total' }).click();
  expect(await page.getByLabel('Source text').locator('mark.mark--active').textContent()).toContain(
    '924.60',
  );
});

it('end to end: an uploaded PDF reviewed over the page previews the worker stored', async () => {
  const placed = await placedTextPdf([
    [
      { text: 'Northwind Office Supplies GmbH', x: 72, y: 720, size: 16 },
      { text: 'Invoice INV-2026-0417', x: 72, y: 690 },
      { text: 'Ergonomic office chair 867.00 EUR', x: 72, y: 640 },
      { text: 'A4 copy paper, 500 sheets 57.60 EUR', x: 72, y: 624 },
    ],
    [{ text: 'Total due: 924.60 EUR', x: 320, y: 200, size: 14 }],
  ]);
  model.behave({ output: OUTPUT });
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/extractions/new');
  await page.getByLabel('Schema').selectOption({ label: INVOICE.name });
  await page.getByRole('radio', { name: 'File' }).check();
  await page.getByLabel('Type').selectOption('pdf');
  await page
    .getByLabel('File', { exact: true })
    .and(page.locator('input[type=file]'))
    .setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: placed.pdf });
  await page.getByLabel('Cite the source for every value').check();
  await page.getByRole('button', { name: 'Run extraction' }).click();
  await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  await expect.poll(() => page.getByTestId('status').textContent(), poll).toBe('completed');
  const review = page.getByRole('region', { name: 'Review' });
  await review.waitFor();
  expect(await review.locator('tr.row--ungrounded').textContent()).toContain('currency');

  // Page 1 from the preview the worker drew, the boxes of its values over it.
  const image = page.getByRole('img', { name: 'Page 1 of the source' });
  await image.waitFor();
  await expect
    .poll(
      () => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      poll,
    )
    .toBe(1000);
  expect(await page.locator('.page-preview__boxes rect').count()).toBeGreaterThanOrEqual(4);
  // The total is on page 2: selecting it turns the page and marks its box.
  await review.getByRole('button', { name: 'total' }).click();
  await page.getByRole('img', { name: 'Page 2 of the source' }).waitFor();
  const active = page.locator('.page-preview__boxes rect.box--active');
  expect(await active.getAttribute('data-pointer')).toBe('/total');
  await screenshots(page, 'review-pdf-end-to-end');
  await readmeScreenshot(page, 'dashboard-review');
});

it('reviews a text source: quotes highlighted, values found nowhere marked and filtered', async () => {
  const id = await completeWith({ type: 'text', source: TEXT }, textCitations(), {
    warnings: [
      { code: 'UNGROUNDED_VALUES', path: '', message: '1 value was found nowhere in the source.' },
    ],
  });
  const page = await dash.signedIn('acme');
  await page.goto(`/dashboard/extractions/${id}`);
  const review = page.getByRole('region', { name: 'Review' });
  await review.waitFor();
  expect(await page.getByTestId('review-summary').textContent()).toMatch(
    /8 values checked.*7 found.*1 not found/,
  );
  expect(await page.getByRole('status').filter({ hasText: 'UNGROUNDED_VALUES' }).count()).toBe(1);

  // The value found nowhere stands out: its own row style and a "not found" mark.
  const flagged = review.locator('tr.row--ungrounded');
  expect(await flagged.count()).toBe(1);
  expect(await flagged.textContent()).toContain('currency');
  expect(await flagged.textContent()).toContain('not found');
  // The null value is listed, without a citation.
  expect(await review.getByRole('row', { name: /po_number/ }).textContent()).toContain('no value');

  // Every grounded quote is marked in the source; selecting a field marks its own strongly.
  const source = page.getByLabel('Source text');
  expect(await source.locator('mark').count()).toBe(7);
  await review.getByRole('button', { name: 'lines › 1 › amount' }).click();
  const active = source.locator('mark.mark--active');
  expect(await active.textContent()).toBe('57.60');
  await review.getByRole('button', { name: 'total' }).click();
  expect(await active.textContent()).toBe('924.60');
  await screenshots(page, 'review-text');

  // The filter leaves only the values found nowhere.
  await page.getByLabel(/Only values not found/).check();
  expect(await review.locator('tbody tr').count()).toBe(1);
  await screenshots(page, 'review-text-filtered');
});

it('reviews a PDF: boxes over the stored page preview, a blank page without one', async () => {
  const pdf = await textPdf([TEXT, 'Terms: 30 days net.\nPO reference: none']);
  const cite = (quote: string, page: number, i: number) => ({
    grounded: true,
    quote,
    page,
    boxes: [textPdfLine(i, quote.length)],
    start: null,
    end: null,
    confidence: 0.9,
  });
  const citations = {
    '/vendor': cite('Northwind Office Supplies GmbH', 1, 0),
    '/invoice_number': cite('Invoice INV-2026-0417', 1, 1),
    '/lines/0/item': cite('Ergonomic office chair', 1, 2),
    '/lines/0/amount': cite('Ergonomic office chair ........ 867.00 EUR', 1, 2),
    '/lines/1/item': cite('A4 copy paper, 500 sheets', 1, 3),
    '/lines/1/amount': cite('A4 copy paper, 500 sheets ...... 57.60 EUR', 1, 3),
    '/total': cite('Total due: 924.60 EUR', 1, 4),
    '/currency': { ...cite('', 1, 0), grounded: false, quote: null, page: null, boxes: [] },
    '/po_number': cite('PO reference: none', 2, 1),
  };
  // Page 1's preview as the worker stores it: a JPEG 1000 px wide of the page.
  const preview = await storeTextPdfPreview(handle, TEXT.split('\n'));
  const id = await completeWith(
    { type: 'pdf', source: `data:application/pdf;base64,${pdf.toString('base64')}` },
    citations,
    { pageImages: { '1': preview }, output: { ...OUTPUT, po_number: 'none' } },
  );

  const page = await dash.signedIn('acme');
  await page.goto(`/dashboard/extractions/${id}`);
  const review = page.getByRole('region', { name: 'Review' });
  await review.waitFor();
  const image = page.getByRole('img', { name: 'Page 1 of the source' });
  await image.waitFor();
  await expect
    .poll(
      () => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      poll,
    )
    .toBe(1000);
  // One box per cited line on page 1, drawn over the picture.
  const boxes = page.locator('.page-preview__boxes rect');
  expect(await boxes.count()).toBe(7);
  await review.getByRole('button', { name: 'total' }).click();
  const active = page.locator('.page-preview__boxes rect.box--active');
  expect(await active.getAttribute('data-pointer')).toBe('/total');
  // Its line enlarged above the page, legible on a phone.
  const closeUp = page.getByRole('img', { name: 'Close-up of total on page 1' });
  await closeUp.waitFor();
  expect(await closeUp.locator('rect.box--active').count()).toBe(1);
  // The box sits where its fractions say over the picture (within its stroke's width).
  const [img, box] = await Promise.all([image.boundingBox(), active.boundingBox()]);
  expect(Math.abs(box!.x - img!.x - textPdfLine(4, 0)[0] * img!.width)).toBeLessThan(3);
  expect(Math.abs(box!.y - img!.y - textPdfLine(4, 0)[1] * img!.height)).toBeLessThan(3);
  await screenshots(page, 'review-pdf');

  // A page without a stored preview: the boxes on a blank page, said so.
  await page.getByRole('button', { name: 'Page 2' }).click();
  await page.getByRole('img', { name: 'Page 2 (no preview)' }).waitFor();
  expect(await boxes.count()).toBe(1);
  expect(await page.locator('.page-preview figcaption').textContent()).toMatch(/no preview/);
  // Selecting a field on another page turns to it.
  await review.getByRole('button', { name: 'vendor' }).click();
  await image.waitFor();

  // The preview is the session's own: another account gets a 404, and so does a page without one.
  const other = await dash.signedIn('globex');
  const theirs = await other.request.get(`/dashboard/api/extractions/${id}/pages/1`);
  expect(theirs.status()).toBe(404);
  const mine = await page.request.get(`/dashboard/api/extractions/${id}/pages/1`);
  expect(mine.status()).toBe(200);
  expect(mine.headers()['content-type']).toBe('image/jpeg');
  expect((await page.request.get(`/dashboard/api/extractions/${id}/pages/2`)).status()).toBe(404);
});
