/**
 * /docs in real Chromium: Swagger UI loads the generated /openapi.json and renders the
 * reference. A screenshot goes to .artifacts/docs/ (gitignored) for people to look at.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '@xt/testkit';
import { CHROMIUM_BASE_ARGS } from '@xt/runtime';
import { startTestApi, type TestApi } from '../../test/start-api.ts';

const ARTIFACTS = path.join(REPO_ROOT, '.artifacts', 'docs');

let api: TestApi;
let browser: Browser;
beforeAll(async () => {
  api = await startTestApi();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_BASE_ARGS],
  });
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

it('renders the API reference from the generated document', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const failed: string[] = [];
  page.on('pageerror', (err) => failed.push(err.message));
  await page.goto(`${api.url}/docs`);

  // Swagger UI fetches /openapi.json and renders it; wait for what it draws from the document.
  await page.getByRole('heading', { name: /Structured Data Extraction API/ }).waitFor();
  for (const tag of ['Schemas', 'Extractions', 'Webhooks', 'Operations'])
    await page.locator(`#operations-tag-${tag}`).waitFor();
  const create = page.locator('#operations-Extractions-createExtraction');
  await create.waitFor();
  expect(await create.locator('.opblock-summary-path').textContent()).toBe('/extractions');
  expect(await page.locator('#operations-Webhooks-listWebhookDeliveries').isVisible()).toBe(true);
  // Swagger UI shows an error box when the document does not parse or a $ref does not resolve.
  expect(await page.locator('.errors-wrapper').count()).toBe(0);
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'docs.png') });

  // The create route: headers and answers come from the zod schemas.
  await create.locator('.opblock-summary-control').click();
  await create.getByText('Idempotency-Key', { exact: true }).waitFor();
  expect(await create.getByText('Prefer', { exact: true }).isVisible()).toBe(true);
  const accepted = create.locator('tr.response[data-code="202"]');
  expect(await accepted.isVisible()).toBe(true);
  expect(await accepted.textContent()).toContain('Retry-After');
  await create.screenshot({ path: path.join(ARTIFACTS, 'create-extraction.png') });
  expect(failed).toEqual([]);
});
