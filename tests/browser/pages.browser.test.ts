/**
 * The schema, extraction, usage and webhook pages in a real browser, with a real worker and the
 * model stand-in: make a schema (and see the API's errors beside the right fields), run an
 * extraction from text and watch it complete, see it counted on the usage chart.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestWorker } from '@xt/api/testing';
import { screenshots, startDashboard, type DashboardFixture } from '../support/dashboard.ts';

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;

beforeAll(async () => {
  model = await startModelStandIn();
  dash = await startDashboard();
  worker = await startTestWorker(dash.api, model.url);
});
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

const poll = { timeout: 30_000 };

it('creates and edits a schema, with the API’s errors beside the fields they name', async () => {
  const page = await dash.signedIn('acme');
  await page.getByRole('link', { name: 'Schemas' }).click();
  await page.getByRole('heading', { name: 'Schemas', level: 1 }).waitFor();
  await page.getByText('No schemas yet').waitFor();
  await screenshots(page, 'schemas-empty');
  await page.getByRole('link', { name: 'New schema' }).first().click();

  // A structure with two problems, and no name.
  await page.getByLabel('Name').fill('');
  await page.getByLabel('Structure (JSON)').fill(
    JSON.stringify({
      type: 'object',
      properties: {
        vendor: { type: 'string', requried: true },
        total: { type: 'money' },
        lines: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' } } },
        },
      },
    }),
  );
  await page.getByRole('button', { name: 'Create schema' }).click();
  const total = page.locator('[data-path="structure.properties.total"] > .outline__errors');
  const vendor = page.locator('[data-path="structure.properties.vendor"] > .outline__errors');
  await expect.poll(() => total.textContent(), poll).toMatch(/structure\.properties\.total\.type/);
  expect(await vendor.textContent()).toMatch(/requried/);
  // Nothing is attached to a field without problems.
  expect(
    await page.locator('[data-path="structure.properties.lines"] > .outline__errors').count(),
  ).toBe(0);
  const nameErrors = page.locator('.field--invalid', { has: page.getByLabel('Name') });
  expect(await nameErrors.textContent()).toMatch(/name/i);
  await screenshots(page, 'schema-errors');

  // Fixed: created, then edited.
  await page.getByLabel('Name').fill('Invoice');
  await page.getByLabel('Structure (JSON)').fill(
    JSON.stringify({
      type: 'object',
      properties: {
        vendor: { type: 'string', required: true },
        total: { type: 'number' },
      },
    }),
  );
  await page.getByRole('button', { name: 'Create schema' }).click();
  await page.getByRole('heading', { name: 'Invoice', level: 1 }).waitFor();
  await page.getByLabel('Description').fill('Supplier invoices');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Schema saved.').waitFor();
  const listed = await dash.api.request('GET', '/v1/schemas?search=invoice');
  expect(listed.body.data.data).toMatchObject([
    { name: 'Invoice', description: 'Supplier invoices' },
  ]);
  await screenshots(page, 'schema-edit');

  await page.getByRole('link', { name: 'Schemas' }).click();
  await page.getByRole('link', { name: 'Invoice' }).waitFor();
  await screenshots(page, 'schemas');
});

it('runs an extraction from text, shows it complete with its output, and counts it in usage', async () => {
  const created = await dash.api.request('POST', '/v1/schemas', {
    json: {
      name: 'Receipt',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  expect(created.status).toBe(201);
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/extractions/new');
  await page.getByLabel('Schema').selectOption({ label: 'Receipt' });
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Total due: 12.50 EUR');
  await screenshots(page, 'extraction-run');
  await page.getByRole('button', { name: 'Run extraction' }).click();
  await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  const status = page.getByTestId('status');
  await expect.poll(() => status.textContent(), poll).toBe('completed');
  const output = page.getByRole('region', { name: 'Output' }).locator('pre');
  expect(JSON.parse((await output.textContent()) ?? 'null')).toHaveProperty('total');
  expect(model.requests.length).toBeGreaterThan(0);
  await screenshots(page, 'extraction');

  await page.getByRole('link', { name: 'Extractions' }).click();
  await page.getByLabel('Status').selectOption('completed');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => page.locator('tbody tr').count(), poll).toBe(1);
  await screenshots(page, 'extractions');

  await page.getByRole('link', { name: 'Usage' }).click();
  const chart = page.getByRole('img', { name: 'Extractions per day' });
  await chart.waitFor();
  expect(await chart.locator('rect').count()).toBeGreaterThan(0);
  await page.getByRole('img', { name: 'Tokens per day' }).waitFor();
  // The one extraction completed: none of its tokens are uncharged.
  expect(await page.getByTestId('uncharged-tokens').textContent()).toBe('0');
  await page.getByText('The numbers, day by day').click();
  await screenshots(page, 'usage');

  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  await page.getByText('No endpoints yet').waitFor();
  await screenshots(page, 'webhooks');
  // The API's own answer to a bad URL shows beside the URL field.
  await page.getByLabel('URL').fill('ftp://files.example.com/hook');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const urlField = page.locator('.field--invalid', { has: page.getByLabel('URL') });
  await expect.poll(() => urlField.textContent(), poll).toMatch(/url/i);
  await screenshots(page, 'webhooks-error');
});
