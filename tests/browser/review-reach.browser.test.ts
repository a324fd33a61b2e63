/**
 * Reaching a value's source in the review view, at phone and desktop width, with an invoice of
 * 22 fields whose source comes after all of them on a phone: the source is one tap away from
 * any field, the page is shown zoomed to the selected value so it can be read, the mark around
 * the value leaves its text clear, and the close-up keeps the start of the value's line (its
 * label) in view. Seeded extractions on the real API, PostgreSQL, Redis and Chromium.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  startDashboard,
  viewShot,
  type DashboardFixture,
} from '../support/dashboard.ts';
import { inViewport, placed, settled, type Box } from '../support/layout.ts';
import { LINES, longInvoices, type LongInvoices } from '../support/long-invoice.ts';
import { textPdfSpan } from '../support/review.ts';

let dash: DashboardFixture;
let invoices: LongInvoices;
let pdfId: string;

beforeAll(async () => {
  dash = await startDashboard();
  invoices = await longInvoices(dash);
  pdfId = await invoices.pdf();
});
afterAll(async () => {
  await invoices?.close();
  await dash?.close();
});

async function boxOf(locator: Locator): Promise<Box> {
  const [first] = await placed(locator);
  if (!first) throw new Error(`not drawn: ${locator.toString()}`);
  return first.box;
}

async function review(size: typeof PHONE, id: string): Promise<Page> {
  const page = await dash.signedIn('acme');
  await page.setViewportSize(size);
  await page.goto(`/dashboard/extractions/${id}`);
  await page.getByRole('img', { name: 'Page 1 of the source' }).waitFor();
  return page;
}

const fieldButton = (page: Page, field: string) =>
  page
    .getByRole('region', { name: 'Review' })
    .locator('.review__fields')
    .getByRole('button', { name: field, exact: true });

/** The sticky way from the list to the source (narrow screens only). */
const toSource = (page: Page) => page.getByRole('button', { name: /^Show (.+ in )?the source$/ });

/** Where `quote` of line `line` is on the picture `image` draws (the page or a close-up's). */
async function onScreen(image: Locator, line: number, quote: string): Promise<Box> {
  const [x0, y0, x1, y1] = await textPdfSpan(line, LINES[line]!, quote);
  const at = await boxOf(image);
  return {
    x: at.x + x0 * at.width,
    y: at.y + y0 * at.height,
    width: (x1 - x0) * at.width,
    height: (y1 - y0) * at.height,
  };
}

/** Whether `outer`'s outline (of stroke `stroke` px) stays clear of `inner` on every side. */
const clearAround = (outer: Box, inner: Box, stroke: number) =>
  outer.x + stroke / 2 <= inner.x &&
  outer.y + stroke / 2 <= inner.y &&
  outer.x + outer.width - stroke / 2 >= inner.x + inner.width &&
  outer.y + outer.height - stroke / 2 >= inner.y + inner.height;

// `lines › 7 › amount`: "32.99" after "USB-C hub, 7 ports ........" on line 9.
const FIELD = 'lines › 7 › amount';
const LINE = 9;
const QUOTE = '32.99';

it('on a phone: the source is one tap from any field, there and back', async () => {
  const page = await review(PHONE, pdfId);
  // Half-way down the list, nothing selected: the way to the source is on the screen.
  await fieldButton(page, 'lines › 4 › item').scrollIntoViewIfNeeded();
  await settled(page);
  await viewShot(page, 'review-reach-list');
  const jump = toSource(page);
  expect(await jump.isVisible()).toBe(true);
  expect(inViewport(page, await boxOf(jump))).toBe(true);
  await jump.click();
  await settled(page);
  const preview = page.locator('.page-preview');
  expect((await boxOf(preview)).y).toBeGreaterThanOrEqual(0);
  expect((await boxOf(preview)).y).toBeLessThan(PHONE.height / 2);

  // From a selected field: straight to its value on the page, zoomed to be read.
  await page.getByRole('button', { name: 'Back to the fields' }).click();
  await fieldButton(page, FIELD).click();
  await settled(page);
  await expect.poll(() => toSource(page).textContent()).toContain(FIELD);
  expect(inViewport(page, await boxOf(toSource(page)))).toBe(true);
  await toSource(page).click();
  await settled(page);
  const active = page.locator('.page-preview__boxes rect.box--active');
  const box = await boxOf(active);
  expect(inViewport(page, box), JSON.stringify(box)).toBe(true);
  // A 12 pt line at least 14 px tall: on the whole page at 390 px it was 6.
  expect(box.height).toBeGreaterThanOrEqual(14);
  await viewShot(page, 'review-reach-page');
  await page.getByRole('button', { name: `Back to ${FIELD}` }).click();
  await settled(page);
  expect(inViewport(page, await boxOf(fieldButton(page, FIELD)))).toBe(true);
});

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('at %s width', (name, size) => {
  it('the selected value: the page zoomed to it, its mark clear of its text', async () => {
    const page = await review(size, pdfId);
    await fieldButton(page, FIELD).click();
    await settled(page);
    if (name === 'phone') await toSource(page).click();
    else expect(await toSource(page).isVisible()).toBe(false);
    await settled(page);
    const image = page.getByRole('img', { name: 'Page 1 of the source' });
    const value = await onScreen(image, LINE, QUOTE);
    expect(value.height).toBeGreaterThanOrEqual(14);
    expect(inViewport(page, value), JSON.stringify(value)).toBe(true);
    // The outline drawn around the value does not cross its text.
    const ring = await boxOf(page.locator('.page-preview__boxes .box__ring'));
    expect(clearAround(ring, value, 2), `${JSON.stringify(ring)} ${JSON.stringify(value)}`).toBe(
      true,
    );
    await viewShot(page, `review-reach-zoomed.${name}`);
    // The whole page is a tap away.
    await page.getByRole('button', { name: 'Whole page' }).click();
    await settled(page);
    const [frame, whole] = [await boxOf(page.locator('.page-preview__scroll')), await boxOf(image)];
    expect(Math.abs(whole.width - frame.width)).toBeLessThan(2);
  });

  it('the close-up keeps the start of the value’s line, and its value whole', async () => {
    const page = await review(size, pdfId);
    await fieldButton(page, FIELD).click();
    await settled(page);
    const strip = page.getByRole('img', { name: `Close-up of ${FIELD} on page 1` });
    await strip.waitFor();
    await settled(page);
    const window = await boxOf(strip);
    const picture = strip.locator('image');
    const label = await onScreen(picture, LINE, LINES[LINE]!.slice(0, 9));
    const value = await onScreen(picture, LINE, QUOTE);
    expect(label.x, 'the label’s start').toBeGreaterThanOrEqual(window.x);
    expect(value.x + value.width, 'the value’s end').toBeLessThanOrEqual(window.x + window.width);
    expect(value.height).toBeGreaterThanOrEqual(14);
    const ring = await boxOf(strip.locator('.box__ring'));
    expect(clearAround(ring, value, 2)).toBe(true);
    await strip.scrollIntoViewIfNeeded();
    await viewShot(page, `review-reach-strip.${name}`);
  });
});
