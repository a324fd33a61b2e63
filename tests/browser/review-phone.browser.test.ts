/**
 * The review view on a phone (390 × 844) with an invoice of 22 fields, so the source is far
 * below the field tapped: the tapped field's place in the source is shown beside it, enlarged
 * and in view, and the whole page or text is a tap away and back. Seeded extractions (a PDF with
 * a stored page preview, and typed text) on the real API, PostgreSQL, Redis and Chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  screenshots,
  startDashboard,
  type DashboardFixture,
} from '../support/dashboard.ts';
import { inViewport, overlapping, placed, settled, type Box } from '../support/layout.ts';
import { longInvoices, type LongInvoices } from '../support/long-invoice.ts';

let dash: DashboardFixture;
let invoices: LongInvoices;

beforeAll(async () => {
  dash = await startDashboard();
  invoices = await longInvoices(dash);
});
afterAll(async () => {
  await invoices?.close();
  await dash?.close();
});

async function reviewOnPhone(id: string): Promise<Page> {
  const page = await dash.signedIn('acme');
  await page.setViewportSize(PHONE);
  await page.goto(`/dashboard/extractions/${id}`);
  await page.getByRole('region', { name: 'Review' }).waitFor();
  return page;
}

/** Taps a field's name in its card and waits for the page to settle. */
async function tap(page: Page, field: string) {
  const button = page
    .getByRole('region', { name: 'Review' })
    .getByRole('button', { name: field, exact: true });
  await button.click();
  await settled(page);
  return button;
}

/** Whether two boxes share a line: each one's middle within the other's height. */
const sameLine = (a: Box, b: Box) =>
  Math.abs(a.y + a.height / 2 - (b.y + b.height / 2)) < Math.min(a.height, b.height) / 2;

async function boxOf(locator: Parameters<typeof placed>[0]) {
  const [first] = await placed(locator);
  if (!first) throw new Error(`not drawn: ${locator.toString()}`);
  return first.box;
}

it('PDF on a phone: the tapped field’s line is enlarged under its card, the page a tap away', async () => {
  const id = await invoices.pdf();
  const page = await reviewOnPhone(id);
  await page.getByRole('img', { name: 'Page 1 of the source' }).waitFor();
  expect(await page.getByRole('region', { name: 'Review' }).locator('tbody tr').count()).toBe(22);

  // Each card in four short lines: the name with whether it was found, the value, the quote,
  // then page and confidence side by side; nothing drawn over anything else.
  const cells = await placed(page.getByRole('row', { name: /lines › 0 › item/ }).locator('td'));
  expect(cells.map((c) => c.text)).toEqual([
    'lines › 0 › item',
    'Ergonomic office chair',
    'found',
    'Ergonomic office chair',
    '1',
    '93%',
  ]);
  expect(overlapping(cells)).toEqual([]);
  const [name, value, found, quote, pageNumber, confidence] = cells.map((c) => c.box);
  expect(sameLine(name!, found!), 'name and "found"').toBe(true);
  expect(sameLine(pageNumber!, confidence!), 'page and confidence').toBe(true);
  expect(value!.y).toBeGreaterThan(name!.y);
  expect(quote!.y).toBeGreaterThan(value!.y);

  // A field far down the list: its line, enlarged, right under the card, all of it in view.
  const field = 'lines › 7 › amount';
  const button = await tap(page, field);
  const strip = page.getByRole('img', { name: `Close-up of ${field} on page 1` });
  await strip.waitFor();
  await settled(page);
  const [tapped, shown] = [await boxOf(button), await boxOf(strip)];
  expect(inViewport(page, shown), JSON.stringify(shown)).toBe(true);
  expect(inViewport(page, tapped), JSON.stringify(tapped)).toBe(true);
  expect(shown.y).toBeGreaterThan(tapped.y);
  expect(shown.y - (tapped.y + tapped.height)).toBeLessThan(PHONE.height / 2);
  // Legible: the value's line (12 pt text) at least 14 px tall.
  const line = await boxOf(strip.locator('rect.box--active'));
  expect(line.height).toBeGreaterThanOrEqual(14);
  expect(await page.getByRole('img', { name: /^Close-up of/ }).count()).toBe(1);
  await screenshots(page, 'review-phone-pdf');

  // The whole page, with the value's box marked, and back to the field.
  await page.getByRole('button', { name: 'Show on the page' }).click();
  await settled(page);
  const onPage = page.locator('.page-preview__boxes rect.box--active');
  expect(await onPage.getAttribute('data-pointer')).toBe('/lines/7/amount');
  expect(inViewport(page, await boxOf(onPage))).toBe(true);
  await page.getByRole('button', { name: `Back to ${field}` }).click();
  await settled(page);
  expect(inViewport(page, await boxOf(button))).toBe(true);

  // At desktop width the close-up stays above the page beside the list, not in it.
  await page.setViewportSize(DESKTOP);
  await settled(page);
  const closeUps = await placed(page.getByRole('img', { name: /^Close-up of/ }));
  expect(closeUps).toHaveLength(1);
  const pane = await boxOf(page.locator('.review__source'));
  expect(closeUps[0]!.box.x).toBeGreaterThanOrEqual(pane.x);
});

it('text on a phone: the tapped field’s line shown under its card, without leaving it', async () => {
  const id = await invoices.text();
  const page = await reviewOnPhone(id);

  const field = 'lines › 8 › item';
  const button = await tap(page, field);
  const strip = page.getByRole('figure', { name: `Close-up of ${field} in the text` });
  await strip.waitFor();
  expect(await strip.locator('mark').textContent()).toBe('Noise-cancelling headset');
  expect(await strip.textContent()).toContain('129.00 EUR');
  const [tapped, shown] = [await boxOf(button), await boxOf(strip)];
  // Selecting does not carry the window off to the source text at the bottom.
  expect(inViewport(page, tapped), JSON.stringify(tapped)).toBe(true);
  expect(inViewport(page, shown), JSON.stringify(shown)).toBe(true);
  expect(shown.y).toBeGreaterThan(tapped.y);
  await screenshots(page, 'review-phone-text');

  await page.getByRole('button', { name: 'Show in the text' }).click();
  await settled(page);
  const mark = page.getByLabel('Source text').locator('mark.mark--active');
  expect(await mark.textContent()).toBe('Noise-cancelling headset');
  expect(inViewport(page, await boxOf(mark))).toBe(true);
  await page.getByRole('button', { name: `Back to ${field}` }).click();
  await settled(page);
  expect(inViewport(page, await boxOf(button))).toBe(true);
});
