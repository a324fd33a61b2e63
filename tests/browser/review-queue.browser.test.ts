/**
 * The review queue in a real browser (docs/review.md#dashboard): extractions a schema's review
 * settings queued, one at a time beside the source with each value's evidence, worked from the
 * keyboard: next and previous, correct a value, accept, reject. Real API, worker, PostgreSQL,
 * Redis and Chromium; the model stand-in answers.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestWorker } from '@xt/api/testing';
import { screenshots, startDashboard, type DashboardFixture } from '../support/dashboard.ts';

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;
let schemaId: string;

const structure = {
  type: 'object',
  properties: { number: { type: 'string', required: true }, total: { type: 'number' } },
};

beforeAll(async () => {
  model = await startModelStandIn();
  dash = await startDashboard();
  worker = await startTestWorker(dash.api, model.url);
  const created = await dash.api.request('POST', '/v1/schemas', {
    json: { name: 'Queued invoice', structure, review: { minConfidence: 0.5 } },
  });
  schemaId = created.body.data.id;
});
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

/** A completed extraction whose required number the model did not find: queued for review. */
async function queued(source: string, total: number): Promise<string> {
  model.behave({ output: { number: '', total } });
  const res = await dash.api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source, citations: true },
  });
  expect(res.status).toBe(200);
  return res.body.data.id as string;
}

const poll = { timeout: 30_000 };

const record = async (id: string) =>
  (await dash.api.request('GET', `/v1/extractions/${id}`)).body.data;

it('works the queue from the keyboard: next, correct, accept, reject', async () => {
  const older = await queued('Number: INV-1\nTotal: 10', 10);
  const newer = await queued('Number: INV-2\nTotal: 20', 20);
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/reviews');
  const position = page.getByTestId('review-position');
  await expect.poll(() => position.textContent(), poll).toMatch(/^1 of 2/);
  // Newest first, its values beside the source's evidence.
  const current = page.getByTestId('current-review');
  await expect.poll(() => current.textContent(), poll).toContain(newer);
  await current.getByRole('region', { name: 'Review' }).waitFor();

  await page.keyboard.press('j');
  await expect.poll(() => position.textContent(), poll).toMatch(/^2 of 2/);
  await expect.poll(() => current.textContent(), poll).toContain(older);
  await page.keyboard.press('k');
  await expect.poll(() => current.textContent(), poll).toContain(newer);

  // c puts the cursor in the first value; Escape leaves it, a accepts with the correction.
  await page.keyboard.press('c');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('INV-2');
  await page.keyboard.press('Escape');
  await screenshots(page, 'review-queue');
  await page.keyboard.press('a');
  await expect.poll(() => position.textContent(), poll).toMatch(/^1 of 1/);
  const accepted = await record(newer);
  expect(accepted.review.status).toBe('approved');
  expect(accepted.review.reviewedBy).toMatch(/^user:/);
  expect(accepted.reviewedResult).toEqual({ number: 'INV-2', total: 20 });
  expect(accepted.result).toEqual({ number: '', total: 20 });

  await expect.poll(() => current.textContent(), poll).toContain(older);
  await page.keyboard.press('r');
  await expect.poll(() => position.textContent(), poll).toBe('Nothing to review.');
  const rejected = await record(older);
  expect(rejected.review.status).toBe('rejected');
  expect(rejected.reviewedResult).toBeNull();
});

it('shows a correction the service refuses on its field, and keeps the extraction queued', async () => {
  const id = await queued('Number: INV-3\nTotal: 30', 30);
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/reviews');
  const current = page.getByTestId('current-review');
  await expect.poll(() => current.textContent(), poll).toContain(id);
  await current.getByLabel('total').fill('thirty');
  await current.getByRole('button', { name: 'Accept (a)' }).click();
  await expect.poll(() => current.textContent(), poll).toContain('must be a number');
  expect((await record(id)).review.status).toBe('needs_review');
});

it('keeps a schema’s review settings when the schema is saved from the editor', async () => {
  const page = await dash.signedIn('acme');
  await page.goto(`/dashboard/schemas/${schemaId}`);
  await page.getByLabel('Description').fill('checked by people');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Schema saved.').waitFor();
  const schema = (await dash.api.request('GET', `/v1/schemas/${schemaId}`)).body.data;
  expect(schema.description).toBe('checked by people');
  expect(schema.review).toEqual({ minConfidence: 0.5 });
});
