/**
 * A new account's first day in a real browser, with a real worker and the model stand-in: make
 * keys, define an invoice schema over the API with one of them, upload an invoice PDF in the
 * extraction form and watch it complete. The stand-in is scripted to answer what a model would
 * read from that invoice, so the pictures this test takes for the README show believable values.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@xt/accounts';
import { createDb } from '@xt/db';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { startTestWorker } from '@xt/api/testing';
import {
  PASSWORD,
  readmeScreenshot,
  screenshots,
  signIn,
  startDashboard,
  type DashboardFixture,
} from '../support/dashboard.ts';

const EMAIL = 'maria@northwind.example';

const INVOICE_SCHEMA = {
  name: 'Supplier invoice',
  description: 'Invoices from office suppliers',
  structure: {
    type: 'object',
    properties: {
      vendor: { type: 'string', required: true },
      invoice_number: { type: 'string', required: true },
      issue_date: { type: 'string', describe: 'ISO 8601 date' },
      currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
      line_items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            description: { type: 'string' },
            quantity: { type: 'number' },
            unit_price: { type: 'number' },
          },
        },
      },
      total: { type: 'number', required: true },
    },
  },
};

const INVOICE_TEXT = [
  'Northwind Office Supplies GmbH',
  'Lindenstrasse 12, 10969 Berlin',
  'Invoice INV-2026-0417',
  'Issue date: 2 November 2026',
  '3 x Ergonomic office chair, 289.00 EUR each: 867.00 EUR',
  '12 x A4 copy paper, 500 sheets, 4.80 EUR each: 57.60 EUR',
  'Total due: 924.60 EUR',
].join('\n');

/** What a model reads from INVOICE_TEXT; the stand-in answers with it. */
const INVOICE_OUTPUT = {
  vendor: 'Northwind Office Supplies GmbH',
  invoice_number: 'INV-2026-0417',
  issue_date: '2026-11-02',
  currency: 'EUR',
  line_items: [
    { description: 'Ergonomic office chair', quantity: 3, unit_price: 289 },
    { description: 'A4 copy paper, 500 sheets', quantity: 12, unit_price: 4.8 },
  ],
  total: 924.6,
};

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;

beforeAll(async () => {
  model = await startModelStandIn();
  dash = await startDashboard();
  worker = await startTestWorker(dash.api, model.url);
  // An account of its own, so its key list holds only what this test makes.
  const handle = createDb(dash.api.database.url, { max: 1 });
  await createUser(handle.db, { accountName: 'northwind', email: EMAIL, password: PASSWORD });
  await handle.close();
});
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

const poll = { timeout: 30_000 };

it('makes keys, then runs an extraction from an uploaded PDF and shows its output', async () => {
  const page = await (await dash.context()).newPage();
  await signIn(page, EMAIL);

  // A read key for a reporting job, used once so the list shows when.
  await page.getByLabel('Label').fill('Monthly reporting');
  await page.getByLabel('Scope').selectOption('read');
  await page.getByRole('button', { name: 'Create key' }).click();
  const readKey = await page.getByTestId('new-key').inputValue();
  await page.getByRole('button', { name: 'I have saved it' }).click();
  expect((await dash.api.request('GET', '/v1/schemas', { key: readKey })).status).toBe(200);

  // A write key for the import job; the list reloads with the read key's last use.
  await page.getByLabel('Label').fill('Invoice import');
  await page.getByLabel('Scope').selectOption('write');
  await page.getByRole('button', { name: 'Create key' }).click();
  const writeKey = await page.getByTestId('new-key').inputValue();
  expect(writeKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
  const reporting = page.getByRole('row', { name: /Monthly reporting/ });
  await expect.poll(() => reporting.textContent(), poll).toContain(readKey.slice(0, 14));
  // The row is already there from the first create; wait for the reload that shows its use.
  await expect.poll(() => reporting.textContent(), poll).not.toContain('never');
  await readmeScreenshot(page, 'dashboard-keys');

  // The schema is made over the API with the new key, as the import job would.
  const created = await dash.api.request('POST', '/v1/schemas', {
    key: writeKey,
    json: INVOICE_SCHEMA,
  });
  expect(created.status).toBe(201);

  const pdf = await textPdf([INVOICE_TEXT]);
  model.behave({ output: INVOICE_OUTPUT });
  await page.goto('/dashboard/extractions/new');
  await page.getByLabel('Schema').selectOption({ label: 'Supplier invoice' });
  await page.getByRole('radio', { name: 'File' }).check();
  await page.getByLabel('Type').selectOption('pdf');
  await page
    .getByLabel('File', { exact: true })
    .and(page.locator('input[type=file]'))
    .setInputFiles({
      name: 'INV-2026-0417.pdf',
      mimeType: 'application/pdf',
      buffer: pdf,
    });
  await screenshots(page, 'extraction-upload-form');
  await page.getByRole('button', { name: 'Run extraction' }).click();

  await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  const status = page.getByTestId('status');
  await expect.poll(() => status.textContent(), poll).toBe('completed');
  const output = page.getByRole('region', { name: 'Output' }).locator('pre');
  expect(JSON.parse((await output.textContent()) ?? 'null')).toEqual(INVOICE_OUTPUT);
  // The upload itself is described: its name and type as stored.
  const details = await page.locator('.details').first().textContent();
  expect(details).toContain('INV-2026-0417.pdf');
  expect(details).toContain('application/pdf');

  // The model saw the PDF's text layer, not the test's script, and the schema's fields.
  expect(model.requests).toHaveLength(1);
  const sent = model.requests[0];
  expect(sent?.text).toContain('Invoice INV-2026-0417');
  expect(sent?.text).toMatch(/Total due: 924\.60 EUR/);
  expect(sent?.images).toEqual([]);
  expect(Object.keys((sent?.schema as { properties: object }).properties).sort()).toEqual(
    Object.keys(INVOICE_SCHEMA.structure.properties).sort(),
  );
  await screenshots(page, 'extraction-upload');
  await readmeScreenshot(page, 'dashboard-extraction');
});
