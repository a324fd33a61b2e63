/**
 * Starting a schema in the dashboard from sample files and from a JSON Schema, in a real
 * browser with a real worker and the model stand-in reading the samples' labels.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestWorker } from '@xt/api/testing';
import { screenshots, startDashboard, type DashboardFixture } from '../support/dashboard.ts';

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;

beforeAll(async () => {
  model = await startModelStandIn({ defaultBehaviour: { oracle: true } });
  dash = await startDashboard();
  worker = await startTestWorker(dash.api, model.url);
});
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

const poll = { timeout: 60_000 };

it('suggests fields from sample files, imports a JSON Schema, and saves the result', async () => {
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/schemas/new');
  const structure = page.getByLabel('Structure (JSON)');

  await page.getByLabel('Sample files', { exact: true }).setInputFiles([
    {
      name: 'a.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Invoice number: INV-7\n取引先: 株式会社サンプル'),
    },
    {
      name: 'b.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Invoice number: INV-8\nTotal due: 12.50 EUR'),
    },
  ]);
  await page.getByLabel('What is the schema for?').fill('supplier invoices');
  await page.getByRole('button', { name: 'Suggest fields' }).click();
  const found = page.getByRole('region', { name: 'Fields found per sample' });
  await found.waitFor(poll);
  expect(await found.getByRole('row', { name: /a\.txt/ }).textContent()).toMatch(/67%.*total_due/);
  const suggested = JSON.parse(await structure.inputValue()) as { properties: object };
  expect(Object.keys(suggested.properties)).toEqual(['invoice_number', '取引先', 'total_due']);
  await screenshots(page, 'schema-suggest');

  // A broken JSON Schema names what is wrong; a good one replaces the structure.
  const jsonSchema = page.getByLabel('JSON Schema', { exact: true });
  await jsonSchema.fill(JSON.stringify({ type: 'object', properties: { a: { type: 'text' } } }));
  await page.getByRole('button', { name: 'Convert' }).click();
  await expect
    .poll(() => page.locator('.field--invalid', { has: jsonSchema }).textContent(), poll)
    .toMatch(/jsonSchema\.properties\.a\.type/);
  await jsonSchema.fill(
    JSON.stringify({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]+$' }, total: { type: 'number' } },
      required: ['code'],
    }),
  );
  await page.getByRole('button', { name: 'Convert' }).click();
  await expect
    .poll(() => page.getByRole('list', { name: 'Not kept' }).textContent(), poll)
    .toMatch(/\/properties\/code\/pattern/);
  expect(JSON.parse(await structure.inputValue())).toEqual({
    type: 'object',
    properties: { code: { type: 'string', required: true }, total: { type: 'number' } },
  });

  await page.getByLabel('Name').fill('Imported');
  await page.getByRole('button', { name: 'Create schema' }).click();
  await page.getByRole('heading', { name: 'Imported', level: 1 }).waitFor();
  const listed = await dash.api.request('GET', '/v1/schemas?search=imported');
  expect(listed.body.data.data[0].structure.properties.code).toEqual({
    type: 'string',
    required: true,
  });
});
