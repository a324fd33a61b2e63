/**
 * Picking the model on the run form (issue #36): the choices are the models the operator
 * configured (MODEL_ENDPOINTS), read from /dashboard/api/models, the default one chosen at
 * first; a model found to read images as OCR text with a small window says so; and the
 * extraction is created with, and run on, the model picked.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type pg from 'pg';
import { openTestPool, type AppProcess } from '@xt/testkit';
import { startTestWorker } from '@xt/api/testing';
import { startDialects, type DialectServers } from '../support/dialects.ts';
import { DESKTOP, PHONE, startDashboard, type DashboardFixture } from '../support/dashboard.ts';

// Screenshots for the person changing the form to look at, kept out of the repository.
const SHOTS = process.env.RUN_MODEL_SHOTS_DIR;

let dialects: DialectServers;
let dash: DashboardFixture;
let worker: AppProcess;
let db: pg.Pool;
let schemaId: string;

beforeAll(async () => {
  dialects = await startDialects({
    'local-llama': { server: 'llamacpp', images: false, contextTokens: 8_192 },
    'vision-large': { server: 'vllm' },
  });
  // The second is the default: the form must take that from the configuration, not the order.
  const endpoints = JSON.stringify(
    (JSON.parse(dialects.endpoints) as { models: { id: string }[] }[]).map((e) => ({
      ...e,
      models: e.models.map((m) => ({ ...m, default: m.id === 'vision-large' })),
    })),
  );
  dash = await startDashboard({ MODEL_ENDPOINTS: endpoints });
  worker = await startTestWorker(dash.api, dialects.servers['vision-large']!.url, {
    MODEL_ENDPOINTS: endpoints,
  });
  db = openTestPool(dash.api.database.url);
  const schema = await dash.api.request('POST', '/v1/schemas', {
    json: {
      name: 'Receipt',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  schemaId = schema.body.data.id as string;
}, 180_000);
afterAll(async () => {
  await db?.end();
  await worker?.stop();
  await dash?.close();
  await dialects?.close();
});

const poll = { timeout: 30_000 };

it('offers the configured models, the default first chosen, and runs the one picked', async () => {
  // One extraction on the local model has the worker probe it, as a first use would.
  const first = await dash.api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source: 'Total: 3.00', model: 'local-llama' },
  });
  expect(first.body.data.status).toBe('completed');

  const page = await dash.signedIn('acme');
  const listed = await page.request.get('/dashboard/api/models');
  expect(listed.status()).toBe(200);
  const models = ((await listed.json()) as { data: { id: string }[] }).data;
  expect(models.map((m) => m.id)).toEqual(['local-llama', 'vision-large']);

  await page.goto('/dashboard/extractions/new');
  const select = page.getByLabel('Model');
  await expect.poll(() => select.inputValue(), poll).toBe('vision-large');
  expect(await select.locator('option').allTextContents()).toEqual([
    'local-llama',
    'vision-large (default)',
  ]);
  // Not probed yet: nothing is known to warn of.
  expect(await select.getAttribute('aria-describedby')).toBeNull();

  await select.selectOption('local-llama');
  const note = page.locator(`#${await select.getAttribute('aria-describedby')}`);
  expect(await note.textContent()).toBe(
    'Reads scans and images as OCR text, so it sees no layout or pictures. ' +
      'Small context (8,192 tokens): long documents take several calls.',
  );
  await page.getByLabel('Schema').selectOption({ label: 'Receipt' });
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Receipt 7. Total: 7.25');
  if (SHOTS) {
    for (const [name, size] of Object.entries({ phone: PHONE, desktop: DESKTOP })) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SHOTS}/run-model.${name}.png`, fullPage: true });
    }
  }

  const before = dialects.servers['local-llama']!.requests.length;
  await page.getByRole('button', { name: 'Run extraction' }).click();
  await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
  await expect.poll(() => page.getByTestId('status').textContent(), poll).toBe('completed');
  const id = new URL(page.url()).pathname.split('/').at(-1)!;
  const row = await db.query<{ model: string }>('select model from extractions where id = $1', [
    id,
  ]);
  expect(row.rows[0]?.model).toBe('local-llama');
  // And it was that model's server that answered it.
  expect(dialects.servers['local-llama']!.requests.length).toBe(before + 1);
  expect(dialects.servers['local-llama']!.requests.at(-1)?.text).toContain('Total: 7.25');
});
