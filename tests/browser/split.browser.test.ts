/**
 * A bundle split into its documents in a real browser (docs/split.md, docs/dashboard.md): a
 * six-page PDF holding an invoice, a delivery note and a contract, uploaded through the run
 * form with three classes, each with its schema. Its page shows the three documents in their
 * colours with the right pages, each linking to its child extraction; each child says which
 * pages of which bundle it is and links back; the list tells bundle and documents apart. Real
 * API, worker, PostgreSQL, Redis and Chromium; the model stand-in classifies the pages by their
 * titles and answers the children with sample values.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SPLIT_PAGES_KEY } from '@xt/contract';
import {
  startModelStandIn,
  type AppProcess,
  type ModelStandIn,
  type RecordedRequest,
} from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { startTestWorker } from '@xt/api/testing';
import { screenshots, startDashboard, type DashboardFixture } from '../support/dashboard.ts';

let dash: DashboardFixture;
let model: ModelStandIn;
let worker: AppProcess;

const SCHEMAS = {
  invoice: { number: { type: 'string' }, total: { type: 'number' } },
  delivery_note: { order: { type: 'string' }, items: { type: 'number' } },
  contract: { parties: { type: 'string' }, term_months: { type: 'number' } },
} as const;
type ClassName = keyof typeof SCHEMAS;
const schemaIds = {} as Record<ClassName, string>;

/** Each page's first line is its title: what the stand-in classifies it by. */
const PAGES = [
  'INVOICE\nNorthwind Office Supplies GmbH\nInvoice INV-2026-0417\nTotal due: 924.60 EUR',
  'Invoice page 2 of 2\n12 x A4 copy paper, 500 sheets: 57.60 EUR',
  'DELIVERY NOTE\nOrder PO-7731\n15 items delivered to Lindenstrasse 12',
  'CONTRACT\nService agreement between Northwind and Contoso',
  'Contract page 2 of 3\nTerm: 24 months',
  'Contract page 3 of 3\nSigned in Berlin',
];
/** What the bundle's documents are, in page order. */
const EXPECTED: { class: ClassName; from: number; to: number }[] = [
  { class: 'invoice', from: 1, to: 2 },
  { class: 'delivery_note', from: 3, to: 3 },
  { class: 'contract', from: 4, to: 6 },
];

beforeAll(async () => {
  model = await startModelStandIn();
  dash = await startDashboard();
  worker = await startTestWorker(dash.api, model.url);
  for (const name of Object.keys(SCHEMAS) as ClassName[]) {
    const created = await dash.api.request('POST', '/v1/schemas', {
      json: { name: `Bundle ${name}`, structure: { type: 'object', properties: SCHEMAS[name] } },
    });
    expect(created.status).toBe(201);
    schemaIds[name] = created.body.data.id;
  }
});
afterAll(async () => {
  await worker?.stop();
  await dash?.close();
  await model?.close();
});

const poll = { timeout: 60_000, interval: 250 };

/** The file input (the source's "File" radio has the same label). */
const fileInput = (page: Page) =>
  page.getByLabel('File', { exact: true }).and(page.locator('input[type=file]'));

/** A bundle's classification call, as against its documents' extractions. */
const classifies = (r: RecordedRequest) =>
  JSON.stringify((r.schema as { properties?: object } | undefined)?.properties ?? {}).includes(
    `"${SPLIT_PAGES_KEY}"`,
  );

const record = async (id: string) =>
  (await dash.api.request('GET', `/v1/extractions/${id}`)).body.data;

// A bundle, its three documents and the pages of a browser at two widths: longer than most.
it(
  'splits a bundle from the form and shows its documents by colour, linked both ways',
  { timeout: 240_000 },
  async () => {
    // The documents' extractions wait until the bundle's page has been seen while they run.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    model.setDefaultBehaviour({ gate: (r) => (classifies(r) ? undefined : held) });
    const page = await dash.signedIn('acme');
    await page.goto('/dashboard/extractions/new');
    await page.getByLabel('Split a bundle into documents').check();
    const names = Object.keys(SCHEMAS) as ClassName[];
    for (const [i, name] of names.entries()) {
      if (i > 0) await page.getByRole('button', { name: 'Add a class' }).click();
      const group = page.getByRole('group', { name: `Class ${i + 1}` });
      await group.getByLabel('Name').fill(name);
      await group.getByLabel('Schema').selectOption({ label: `Bundle ${name}` });
    }
    await page
      .getByRole('group', { name: 'Class 1' })
      .getByLabel('Description (optional)')
      .fill('A bill asking for payment');
    await page.getByLabel('Type').selectOption('pdf');
    await fileInput(page).setInputFiles({
      name: 'mailroom.pdf',
      mimeType: 'application/pdf',
      buffer: await textPdf(PAGES),
    });
    await page.getByRole('button', { name: 'Run extraction' }).click();
    await page.waitForURL(/\/dashboard\/extractions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const parentId = page.url().split('/').at(-1)!;

    // What the API made of it: the class sent with its description and schema, three documents.
    const parent = await record(parentId);
    expect(parent.schemaId).toBeNull();
    expect(parent.split.classes[0]).toEqual({
      name: 'invoice',
      description: 'A bill asking for payment',
      schema_id: schemaIds.invoice,
    });
    // Left empty, a description is left out, not sent as "".
    expect(parent.split.classes[1]).toEqual({
      name: 'delivery_note',
      schema_id: schemaIds.delivery_note,
    });
    expect(parent.split.other).toBe(true);
    // While they run: the documents the split made, each with its pages, none final yet.
    const running = page.getByTestId('bundle-pending');
    await expect.poll(() => running.locator('li').count(), poll).toBe(3);
    const listed = await running.locator('li').allTextContents();
    expect(listed.map((t) => t.replace(/ ?extraction .*/, ''))).toEqual([
      'invoice pages 1–2',
      'delivery_note page 3',
      'contract pages 4–6',
    ]);
    expect(await running.textContent()).toContain('0 of 3 documents extracted so far');
    await screenshots(page, 'split-bundle-running');
    model.setDefaultBehaviour({});
    release();
    await expect.poll(async () => (await record(parentId)).status, poll).toBe('completed');
    const { documents } = (await record(parentId)).result;
    expect(
      documents.map((d: { class: string; pages: object }) => ({ class: d.class, ...d.pages })),
    ).toEqual(EXPECTED);

    // The legend: each document's class, pages and child extraction, completed.
    const bundle = page.getByTestId('bundle');
    const entries = bundle.getByTestId('bundle-document');
    await expect.poll(() => entries.count(), poll).toBe(3);
    const colours = new Set<string>();
    for (const [i, expected] of EXPECTED.entries()) {
      const entry = entries.nth(i);
      const pages =
        expected.from === expected.to
          ? `page ${expected.from}`
          : `pages ${expected.from}–${expected.to}`;
      await expect.poll(() => entry.textContent(), poll).toContain(`${expected.class} ${pages}`);
      await expect.poll(() => entry.textContent(), poll).toContain('completed');
      const link = entry.getByRole('link');
      expect(await link.getAttribute('href')).toBe(
        `/dashboard/extractions/${documents[i].extractionId}`,
      );
      colours.add((await entry.getAttribute('class'))!.match(/doc-colour-\S+/)![0]);
    }
    expect(colours.size).toBe(3);

    // Every page in its document's colour, with the document's number and class in words.
    const tiles = bundle.getByTestId('bundle-page');
    expect(await tiles.count()).toBe(PAGES.length);
    for (const [i, expected] of EXPECTED.entries())
      for (let p = expected.from; p <= expected.to; p++) {
        const tile = tiles.nth(p - 1);
        expect(await tile.getAttribute('data-page')).toBe(String(p));
        expect(await tile.getAttribute('data-document')).toBe(String(i + 1));
        expect(await tile.getAttribute('class')).toContain(
          (await entries.nth(i).getAttribute('class'))!.match(/doc-colour-\S+/)![0],
        );
        expect(await tile.textContent()).toContain(expected.class);
      }
    // The pages themselves, as thumbnails the worker stored, loaded.
    const thumbnails = bundle.locator('.bundle-page img');
    await expect.poll(() => thumbnails.count(), poll).toBe(PAGES.length);
    for (const img of await thumbnails.all()) {
      await img.scrollIntoViewIfNeeded();
      await expect
        .poll(
          () => img.evaluate((e) => (e as unknown as { naturalWidth: number }).naturalWidth),
          poll,
        )
        .toBeGreaterThan(0);
    }
    await screenshots(page, 'split-bundle');

    // A child says which pages of which bundle it is, and links back. Its review is held until
    // the page has shown the child: nothing of the bundle's own review shows under the child's id
    // meanwhile (the bundle's empty schema name did, when the page was not started afresh).
    let releaseReview!: () => void;
    const reviewHeld = new Promise<void>((resolve) => (releaseReview = resolve));
    const childReview = `**/extractions/${documents[1].extractionId}/review`;
    await page.route(childReview, async (route) => {
      await reviewHeld;
      await route.continue();
    });
    await entries.nth(1).getByRole('link').click();
    const of = page.getByTestId('bundle-of');
    await expect.poll(() => of.textContent(), poll).toBe(`page 3 of bundle ${parentId}`);
    expect(await page.getByTestId('schema-name').count()).toBe(0);
    releaseReview();
    await expect
      .poll(() => page.getByTestId('schema-name').textContent(), poll)
      .toBe('Bundle delivery_note');
    await page.unroute(childReview);
    await screenshots(page, 'split-child');
    await of.getByRole('link').click();
    await bundle.waitFor();
    expect(page.url()).toMatch(new RegExp(`/dashboard/extractions/${parentId}$`));

    // The list: the bundle's row counts its documents, each document's row names its bundle.
    await page.goto('/dashboard/extractions');
    const notes = page.getByTestId('bundle-note');
    await expect.poll(() => notes.count(), poll).toBe(4);
    const texts = await notes.allTextContents();
    expect(texts).toContain('bundle of 3 documents, 3 extracted');
    for (const expected of EXPECTED) {
      const pages =
        expected.from === expected.to
          ? `page ${expected.from}`
          : `pages ${expected.from}–${expected.to}`;
      expect(texts).toContain(`${pages} of bundle ${parentId.slice(0, 8)}`);
    }
    await screenshots(page, 'split-list');
    // The bundle's own documents, listed from its page.
    await page.goto(`/dashboard/extractions?parent_id=${parentId}`);
    await expect.poll(() => notes.count(), poll).toBe(3);
  },
);

it('shows the API’s refusal of a class beside that class’s name', async () => {
  const page = await dash.signedIn('acme');
  await page.goto('/dashboard/extractions/new');
  await page.getByLabel('Split a bundle into documents').check();
  await page.getByRole('group', { name: 'Class 1' }).getByLabel('Name').fill('invoice');
  await page.getByRole('button', { name: 'Add a class' }).click();
  const second = page.getByRole('group', { name: 'Class 2' });
  await second.getByLabel('Name').fill('Invoice');
  await fileInput(page).setInputFiles({
    name: 'mailroom.pdf',
    mimeType: 'application/pdf',
    buffer: await textPdf(PAGES.slice(0, 2)),
  });
  await page.getByRole('button', { name: 'Run extraction' }).click();
  // Names are unique regardless of case: the second is refused, on its own input.
  await expect
    .poll(() => second.getByLabel('Name').getAttribute('aria-invalid'), poll)
    .toBe('true');
  expect(
    await page
      .getByRole('group', { name: 'Class 1' })
      .getByLabel('Name')
      .getAttribute('aria-invalid'),
  ).toBe('false');
  await screenshots(page, 'split-form-error');
});

it('draws pages of no class grey and says which documents were not extracted', async () => {
  // Over the API: the form's part is the test above; this one is about what the page draws.
  const form = new FormData();
  form.append('type', 'pdf');
  form.append(
    'split',
    JSON.stringify({
      classes: [{ name: 'invoice', schema_id: schemaIds.invoice }, { name: 'contract' }],
    }),
  );
  const bundle = await textPdf(['Cover letter\nPlease find enclosed', PAGES[0]!, PAGES[3]!]);
  form.append('source', new Blob([new Uint8Array(bundle)]), 'with-cover.pdf');
  const created = await dash.api.request('POST', '/v1/extractions', {
    body: form,
    headers: { prefer: 'respond-async' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const id = created.body.data.id as string;
  await expect.poll(async () => (await record(id)).status, poll).toBe('completed');
  const page = await dash.signedIn('acme');
  await page.goto(`/dashboard/extractions/${id}`);
  const entries = page.getByTestId('bundle-document');
  await expect.poll(() => entries.count(), poll).toBe(3);
  expect(await entries.nth(0).getAttribute('class')).toContain('doc-colour-other');
  expect(await entries.nth(0).textContent()).toContain('no class: not extracted');
  expect(await entries.nth(1).getByRole('link').count()).toBe(1);
  expect(await entries.nth(2).textContent()).toContain('no schema: not extracted');
  const tiles = page.getByTestId('bundle-page');
  expect(await tiles.nth(0).getAttribute('class')).toContain('doc-colour-other');
  expect(await tiles.nth(0).textContent()).toContain('other');
  await screenshots(page, 'split-bundle-other');
});
