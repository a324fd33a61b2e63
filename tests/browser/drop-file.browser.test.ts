/**
 * The run form takes a file dropped anywhere on it, as `auto`: the service reads it as whatever
 * its content is, whatever its name says.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { startTestWorker } from '@xt/api/testing';
import { screenshots, startDashboard, type DashboardFixture } from '../support/dashboard.ts';

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;
const poll = { timeout: 60_000, interval: 250 };

beforeAll(async () => {
  model = await startModelStandIn({ defaultBehaviour: { output: { total: 924.6 } } });
  dash = await startDashboard({ EXTRACTION_WAIT_SECONDS: '30' });
  worker = await startTestWorker(dash.api, model.url);
});
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

it(
  'extracts from a file dropped on the form, read as the kind its content is',
  { timeout: 180_000 },
  async () => {
    const schema = await dash.api.request('POST', '/v1/schemas', {
      json: {
        name: 'Totals',
        structure: { type: 'object', properties: { total: { type: 'number' } } },
      },
    });
    expect(schema.status).toBe(201);
    const page = await dash.signedIn('acme');
    await page.goto('/dashboard/extractions/new');
    await page.getByLabel('Schema').selectOption({ label: 'Totals' });

    // A PDF under a name that says nothing, dropped as a browser drops a file from the desktop.
    const pdf = await textPdf(['Invoice 7', 'Total due: 924.60 EUR']);
    const form = page.locator('form.card');
    const transfer = await page.evaluateHandle(
      (bytes) => {
        // Runs in the page: the tests' program has Node's types, not the DOM's.
        const page = globalThis as unknown as {
          DataTransfer: new () => { items: { add(file: File): void } };
        };
        const dt = new page.DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], 'scan-0042', { type: '' }));
        return dt;
      },
      [...pdf],
    );
    await form.dispatchEvent('dragover', { dataTransfer: transfer });
    await expect.poll(() => form.getAttribute('class'), poll).toContain('card--drop');
    await form.dispatchEvent('drop', { dataTransfer: transfer });

    // The file field shows the dropped file, as if it had been chosen there.
    const fileField = page.locator('input[type=file]');
    await expect
      .poll(
        () =>
          fileField.evaluate(
            (input) => (input as unknown as { files: { name: string }[] }).files[0]?.name,
          ),
        poll,
      )
      .toBe('scan-0042');
    expect(await page.getByRole('radio', { name: 'File' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Type').inputValue()).toBe('auto');
    await screenshots(page, 'run-form-dropped');
    await page.getByRole('button', { name: 'Run extraction' }).click();

    await page.getByRole('heading', { name: 'Extraction', level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('status').textContent(), poll).toBe('completed');
    expect(model.requests.at(-1)?.text).toContain('Total due: 924.60 EUR');
    const list = await dash.api.request('GET', '/v1/extractions?limit=1');
    expect(list.body.data.data[0].input).toMatchObject({
      type: 'pdf',
      format: 'pdf',
      source: 'scan-0042',
    });
  },
);
