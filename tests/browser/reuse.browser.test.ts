/**
 * Reuse from the dashboard, in a real browser with a real worker and the model stand-in
 * (docs/reuse.md): the same text run twice from the run form completes the second time from
 * the first answer, which the detail page says, with no tokens and no charge; unticking
 * "Reuse an earlier answer" runs the model again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestWorker } from '@xt/api/testing';
import { screenshots, startDashboard, type DashboardFixture } from '../support/dashboard.ts';

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;

beforeAll(async () => {
  model = await startModelStandIn();
  // The service's own default age, as a user meets it.
  dash = await startDashboard({ CACHE_MAX_AGE_SECONDS: '604800' });
  worker = await startTestWorker(dash.api, model.url);
  const schema = await dash.api.request('POST', '/v1/schemas', {
    json: {
      name: 'Receipt',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  expect(schema.status).toBe(201);
});
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

const poll = { timeout: 30_000 };

async function run(page: Page, text: string, reuse: boolean): Promise<string> {
  await page.goto('/dashboard/extractions/new');
  await page.getByLabel('Schema').selectOption({ label: 'Receipt' });
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill(text);
  const box = page.getByLabel('Reuse an earlier answer');
  expect(await box.isChecked()).toBe(true);
  if (!reuse) await box.uncheck();
  await page.getByRole('button', { name: 'Run extraction' }).click();
  await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  await expect.poll(() => page.getByTestId('status').textContent(), poll).toBe('completed');
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

it('completes a repeated run from the earlier answer, and runs afresh when asked', async () => {
  const page = await dash.signedIn('acme');
  const text = 'Receipt 44. Total due: 44.50 EUR';
  const first = await run(page, text, true);
  expect(await page.getByTestId('reused').count()).toBe(0);
  expect(model.requests).toHaveLength(1);

  const second = await run(page, text, true);
  expect(second).not.toBe(first);
  const reused = page.getByTestId('reused');
  await reused.waitFor();
  expect(await reused.textContent()).toContain(first);
  expect(model.requests).toHaveLength(1);
  await screenshots(page, 'extraction-reused');
  // The link leads to the extraction that did the work.
  await reused.getByRole('link').click();
  await page.waitForURL(`**/dashboard/extractions/${first}`);

  await run(page, text, false);
  expect(await page.getByTestId('reused').count()).toBe(0);
  expect(model.requests).toHaveLength(2);
});
