/**
 * The review view of a spreadsheet (docs/citations.md#review-view): an XLSX made by LibreOffice,
 * uploaded through the run form with citations and extracted by a real worker (which stores the
 * cells around each cited cell), then reviewed: each value names its sheet and cell, and the
 * sheet is shown around the cited cell with the cell highlighted, beside the list at desktop
 * width and under the tapped field on a phone. Real API, worker, PostgreSQL, Redis and
 * Chromium; the model stand-in answers.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { SAMPLE_WORKBOOK, workbookFiles } from '@xt/testkit/fixtures';
import { startTestWorker } from '@xt/api/testing';
import {
  PHONE,
  screenshots,
  startDashboard,
  viewShot,
  type DashboardFixture,
} from '../support/dashboard.ts';
import { inViewport, placed, settled } from '../support/layout.ts';

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;
let xlsx: Buffer;

const SCHEMA = {
  name: 'Price list',
  structure: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            sku: { type: 'string' },
            description: { type: 'string' },
            unit_price: { type: 'number' },
            since: { type: 'string' },
          },
        },
      },
      currency: { type: 'string' },
    },
  },
};

const OUTPUT = {
  title: 'Price list 2024',
  items: [
    { sku: 'A-100', description: 'Widget', unit_price: 1234.5, since: '2024-03-05' },
    { sku: 'A-101', description: 'Gadget with two lines', unit_price: 99.99, since: '2023-12-31' },
    { sku: 'A-102', description: 'Gizmo', unit_price: 0.5, since: null },
  ],
  // Invented: written nowhere in the workbook.
  currency: 'USD',
};

beforeAll(async () => {
  xlsx = (await workbookFiles(SAMPLE_WORKBOOK, ['xlsx'])).xlsx;
  model = await startModelStandIn();
  dash = await startDashboard();
  worker = await startTestWorker(dash.api, model.url);
  await dash.api.request('POST', '/v1/schemas', { json: SCHEMA });
}, 300_000);
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

const poll = { timeout: 60_000 };

/** The grid's column letters are drawn, the active cell's right over it. */
async function lettersOver(grid: Locator, letter: string) {
  const [header] = await placed(grid.getByRole('columnheader', { name: letter, exact: true }));
  const [cell] = await placed(grid.locator('td.sheet-grid__active'));
  expect(header, `column ${letter}`).toBeDefined();
  expect(header!.box.height).toBeGreaterThanOrEqual(12);
  const middle = cell!.box.x + cell!.box.width / 2;
  expect(middle).toBeGreaterThan(header!.box.x);
  expect(middle).toBeLessThan(header!.box.x + header!.box.width);
  expect(header!.box.y + header!.box.height).toBeLessThanOrEqual(cell!.box.y + 1);
}

const field = (review: Locator, name: string) =>
  review.locator('.review__fields').getByRole('button', { name, exact: true });

it('names the sheet and cell of each value, and shows the sheet around the cited cell', async () => {
  model.behave({ output: OUTPUT });
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/extractions/new');
  await page.getByLabel('Schema').selectOption({ label: SCHEMA.name });
  await page.getByRole('radio', { name: 'File' }).check();
  await page.getByLabel('Type').selectOption('spreadsheet');
  await page
    .getByLabel('File', { exact: true })
    .and(page.locator('input[type=file]'))
    .setInputFiles({
      name: 'prices.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: xlsx,
    });
  await page.getByLabel('Cite the source for every value').check();
  await page.getByRole('button', { name: 'Run extraction' }).click();
  await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  await expect.poll(() => page.getByTestId('status').textContent(), poll).toBe('completed');

  const review = page.getByRole('region', { name: 'Review' });
  await review.waitFor();
  expect(await page.getByTestId('review-summary').textContent()).toMatch(
    /13 values checked.*12 found.*1 not found/,
  );
  // Each value's sheet and cell, in a column of its own.
  const cellOf = (name: string) =>
    review.getByRole('row', { name: new RegExp(`^${name}\\b`) }).locator('.review__cell');
  expect(await cellOf('title').textContent()).toBe('Prices!A1');
  expect(await cellOf('items › 0 › unit_price').textContent()).toBe('Prices!C3');
  expect(await cellOf('items › 1 › description').textContent()).toBe('Prices!B4');
  expect(await cellOf('currency').textContent()).toBe('—');

  // Beside the list: the sheet around the selected value's cell, the cell highlighted, the
  // other cited cells marked, the header row and the hidden row and column labelled.
  await field(review, 'items › 1 › unit_price').click();
  const pane = page.locator('.review__source');
  const active = pane.locator('td.sheet-grid__active');
  await expect.poll(() => active.getAttribute('data-cell'), poll).toBe('C4');
  expect(await active.textContent()).toBe('99.99');
  expect(await pane.locator('td.sheet-grid__cited').count()).toBeGreaterThan(8);
  expect(await pane.locator('thead th', { hasText: 'hidden' }).textContent()).toBe('D hidden');
  expect(await pane.locator('tbody th', { hasText: 'hidden' }).textContent()).toBe('4 hidden');
  // Clicking another cited cell selects its field.
  await pane.locator('td[data-cell="A5"]').click();
  await expect
    .poll(() => review.locator('.review__fields button[aria-pressed="true"]').textContent(), poll)
    .toBe('items › 2 › sku');
  await field(review, 'items › 0 › unit_price').click();
  await expect.poll(() => active.getAttribute('data-cell'), poll).toBe('C3');
  await lettersOver(pane, 'C');
  await screenshots(page, 'review-sheet');

  // On a phone the close-up opens under the tapped field: its sheet and cell, and the cells
  // around it with the header row above.
  await page.setViewportSize(PHONE);
  await field(review, 'items › 0 › since').click();
  const evidence = review.getByTestId('evidence-cell');
  await evidence.waitFor();
  await expect.poll(() => evidence.textContent(), poll).toBe('Sheet Prices, cell G3');
  const strip = review.locator('.cell-strip');
  expect(await strip.locator('td.sheet-grid__active').textContent()).toBe('2024-03-05');
  expect(await strip.locator('tr.sheet-grid__header td').allTextContents()).toContain('Since');
  await strip.scrollIntoViewIfNeeded();
  await viewShot(page, 'review-sheet-strip');
  // Column letters over the cells, as in the sheet (the cards' hidden header took them too).
  await lettersOver(strip, 'G');
  await screenshots(page, 'review-sheet-phone');
  // The sheet beside no field but after all of them: one tap from the field away.
  await field(review, 'items › 0 › since').scrollIntoViewIfNeeded();
  await review.getByRole('button', { name: 'Show items › 0 › since in the source' }).click();
  await settled(page);
  const [whole] = await placed(pane.locator('td.sheet-grid__active'));
  expect(whole && inViewport(page, whole.box), JSON.stringify(whole)).toBe(true);
});
