/**
 * The review view of an email (docs/citations.md#review-view): an EML with a PDF invoice
 * attached, uploaded through the run form with citations, extracted by a real worker (page
 * previews of the attachment drawn by it), then reviewed: each value says which part it came
 * from, the attachment's page shows the value's boxes over its preview, and the message's own
 * values show their quotes. At desktop and phone width. Real API, worker, PostgreSQL, Redis and
 * Chromium; the model stand-in answers; the message is written by Python's MIME composer.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { composeEmail, placedTextPdf } from '@xt/testkit/fixtures';
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
let eml: Buffer;

const SCHEMA = {
  name: 'Emailed invoice',
  structure: {
    type: 'object',
    properties: {
      sender: { type: 'string' },
      subject: { type: 'string' },
      vendor: { type: 'string' },
      invoice_number: { type: 'string' },
      total: { type: 'number' },
    },
  },
};

const OUTPUT = {
  sender: 'billing@northwind.test',
  subject: 'Your March invoice',
  vendor: 'Northwind Office Supplies GmbH',
  invoice_number: 'INV-2026-0417',
  total: 924.6,
};

beforeAll(async () => {
  const invoice = await placedTextPdf([
    [
      { text: 'Northwind Office Supplies GmbH', x: 72, y: 720, size: 16 },
      { text: 'Invoice INV-2026-0417', x: 72, y: 690 },
      { text: 'Ergonomic office chair 867.00 EUR', x: 72, y: 640 },
    ],
    [{ text: 'Total due: 924.60 EUR', x: 320, y: 200, size: 14 }],
  ]);
  eml = await composeEmail({
    from: 'Northwind Billing <billing@northwind.test>',
    to: 'Accounts Payable <ap@acme.test>',
    subject: 'Your March invoice',
    date: 'Tue, 03 Mar 2026 09:15:00 +0100',
    text: { content: 'Hello,\n\nplease find our March invoice attached.\n\nNorthwind Billing' },
    attachments: [
      {
        filename: 'northwind-invoice-2026-0417.pdf',
        type: 'application/pdf',
        content: invoice.pdf,
      },
    ],
  });
  model = await startModelStandIn();
  dash = await startDashboard();
  worker = await startTestWorker(dash.api, model.url);
  await dash.api.request('POST', '/v1/schemas', { json: SCHEMA });
});
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

const poll = { timeout: 60_000 };

/** A field's button in the list (the parts pane lists the message's fields too). */
const field = (review: Locator, name: string) =>
  review.locator('.review__fields').getByRole('button', { name, exact: true });
const PDF = 'northwind-invoice-2026-0417.pdf';

it('shows which part of the message each value came from, and where in it', async () => {
  model.behave({ output: OUTPUT });
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/extractions/new');
  await page.getByLabel('Schema').selectOption({ label: SCHEMA.name });
  await page.getByRole('radio', { name: 'File' }).check();
  await page.getByLabel('Type').selectOption('email');
  await page
    .getByLabel('File', { exact: true })
    .and(page.locator('input[type=file]'))
    .setInputFiles({ name: 'march-invoice.eml', mimeType: 'message/rfc822', buffer: eml });
  await page.getByLabel('Cite the source for every value').check();
  await page.getByRole('button', { name: 'Run extraction' }).click();
  await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  await expect.poll(() => page.getByTestId('status').textContent(), poll).toBe('completed');

  const review = page.getByRole('region', { name: 'Review' });
  await review.waitFor();
  expect(await page.getByTestId('review-summary').textContent()).toMatch(
    /5 values checked.*5 found.*0 not found/,
  );
  // Under each quote, where it is: the message itself, or the attachment and its page.
  const partOf = (field: string) =>
    review.getByRole('row', { name: new RegExp(`^${field}\\b`) }).locator('.review__part');
  expect(await partOf('sender').textContent()).toBe('in the message');
  expect(await partOf('vendor').textContent()).toBe(`in ${PDF}, page 1`);
  expect(await partOf('total').textContent()).toBe(`in ${PDF}, page 2`);

  // Beside the list: the parts, the attachment's page with the total's box over the preview
  // the worker drew.
  await field(review, 'total').click();
  const parts = page.getByRole('group', { name: 'Parts of the message' });
  await expect
    .poll(() => parts.getByRole('button', { pressed: true }).textContent(), poll)
    .toBe(`${PDF} (3)`);
  const image = page.getByRole('img', { name: `Page 2 of ${PDF}` });
  await image.waitFor();
  await expect
    .poll(
      () => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      poll,
    )
    .toBe(1000);
  const active = page.locator('.page-preview__boxes rect.box--active');
  expect(await active.getAttribute('data-pointer')).toBe('/total');
  const closeUp = page.getByRole('img', { name: 'Close-up of total on page 2' });
  await closeUp.waitFor();
  await screenshots(page, 'review-email-attachment');

  // A value of the message itself: its part chosen, its quote marked.
  await field(review, 'sender').click();
  await expect
    .poll(() => parts.getByRole('button', { pressed: true }).textContent(), poll)
    .toBe('Message (2)');
  const quotes = page.getByRole('list', { name: 'Values found in the message' });
  await expect
    .poll(() => quotes.locator('li.is-selected q').textContent(), poll)
    .toBe('billing@northwind.test');
  await screenshots(page, 'review-email-message');

  // On a phone the evidence opens under the tapped field, naming its part.
  await page.setViewportSize(PHONE);
  await field(review, 'vendor').click();
  const evidence = review.getByTestId('evidence-part');
  await evidence.waitFor();
  await expect.poll(() => evidence.textContent(), poll).toBe(`In ${PDF}, page 1`);
  // Its button names the part it shows: the attachment here, the message below.
  expect(await review.getByRole('button', { name: `Show in ${PDF}` }).count()).toBe(1);
  expect(await review.getByRole('button', { name: 'Show in the message' }).count()).toBe(0);
  await field(review, 'subject').click();
  await expect.poll(() => evidence.textContent(), poll).toBe('In the message');
  expect(await review.locator('.part-strip mark').textContent()).toBe('Your March invoice');
  await screenshots(page, 'review-email-phone');
  await review.getByRole('button', { name: 'Show in the message' }).click();
  await settled(page);
  expect(await parts.getByRole('button', { pressed: true }).textContent()).toBe('Message (2)');
  const quote = page
    .getByRole('list', { name: 'Values found in the message' })
    .locator('li.is-selected q');
  expect(await quote.textContent()).toBe('Your March invoice');
  const [shown] = await placed(quote);
  expect(inViewport(page, shown!.box), JSON.stringify(shown)).toBe(true);
  await viewShot(page, 'review-email-message-shown');
});
