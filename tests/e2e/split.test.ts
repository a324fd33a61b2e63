/**
 * Splitting a bundle into its documents (docs/split.md), through the whole service: a PDF
 * holding an invoice, a delivery note and a contract is classified in chunks of two pages
 * (SPLIT_CLASSIFY_PAGES), cut into one child extraction per document whose class names a
 * schema, each extracted with its own schema and cited in the bundle's page numbers; the parent
 * completes once every child is final, charged for its own classification calls only. A bundle
 * by URL is fetched once, an image bundle is one page, a bundle that cannot be read fails with
 * no children, a class's schema is read as it was at create. Bad input is refused naming the
 * field, with nothing written; deleting the parent deletes its children.
 * Real API, worker, PostgreSQL and Redis; the stand-in model classifies pages by their titles
 * and reads values from `Label: value` lines (its oracle mode).
 */
import type pg from 'pg';
import { describe, expect } from 'vitest';
import { SPLIT_PAGES_KEY } from '@xt/contract';
import { openTestPool, waitFor, type RecordedRequest } from '@xt/testkit';
import {
  corruptPdf,
  flatTextDocument,
  mixedPdf,
  officeFile,
  startFixtureServer,
  textImagePng,
  textPdf,
} from '@xt/testkit/fixtures';
import type { TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

// Five pages, three documents; pages 2 and 5 continue the document before them (page 2 names
// no class, page 5 says it is the contract's second page). In chunks of two pages, page 5 is a
// chunk of its own: its title alone says it continues.
const BUNDLE_PAGES = [
  'INVOICE\nInvoice number: INV-501\nTotal: 120.00',
  'Terms and conditions\nPayment terms: 30 days net',
  'DELIVERY NOTE\nDelivery number: DN-77\nCarrier: Kestrel Logistics',
  'CONTRACT\nParty A: Northwind Traders',
  'CONTRACT page 2 of 2\nGoverning law: the laws of Ontario',
];

const fixtures = await startFixtureServer({
  '/mail/bundle.pdf': { body: await textPdf(BUNDLE_PAGES), contentType: 'application/pdf' },
});
const allow = `127.0.0.1:${fixtures.port}`;

const test = stackTest({
  model: { defaultBehaviour: { oracle: true } },
  api: { WEBHOOK_ALLOWLIST: '127.0.0.1:9', SOURCE_ALLOWLIST: allow },
  // SPLIT_PAGES 1: a document of two pages or more is read as page windows.
  worker: {
    SPLIT_CLASSIFY_PAGES: '2',
    SPLIT_PAGES: '1',
    JOB_ATTEMPTS: '1',
    SOURCE_ALLOWLIST: allow,
  },
});
test.afterAll(() => fixtures.close());

let db: pg.Pool;
const schemas: Record<string, string> = {};

const STRUCTURES = {
  invoice: {
    type: 'object',
    properties: {
      invoice_number: { type: 'string', required: true },
      total: { type: 'number' },
      payment_terms: { type: 'string' },
    },
  },
  delivery: {
    type: 'object',
    properties: { delivery_number: { type: 'string' }, carrier: { type: 'string' } },
  },
  contract: {
    type: 'object',
    properties: { party_a: { type: 'string' }, governing_law: { type: 'string' } },
  },
};

test.beforeAll(async ({ api }) => {
  db = openTestPool(api.database.url);
  for (const [name, structure] of Object.entries(STRUCTURES)) {
    const res = await api.request('POST', '/v1/schemas', { json: { name, structure } });
    expect(res.status).toBe(201);
    schemas[name] = res.body.data.id;
  }
  // Subscribed to final events, so each is recorded (never delivered: nothing listens on 9).
  const hook = await api.request('POST', '/v1/webhooks', {
    json: {
      url: 'http://127.0.0.1:9/hook',
      events: ['extraction.completed', 'extraction.failed'],
    },
  });
  expect(hook.status).toBe(201);
}, 120_000);

async function events(id: string): Promise<{ type: string; status: string }[]> {
  const r = await db.query('select body from webhook_events where extraction_id = $1', [id]);
  return r.rows.map((row: { body: string }) => {
    const event = JSON.parse(row.body) as { type: string; data: { status: string } };
    return { type: event.type, status: event.data.status };
  });
}

test.afterAll(() => db?.end());

const classes = () => [
  { name: 'invoice', description: 'A bill asking for payment', schema_id: schemas.invoice },
  { name: 'delivery_note', schema_id: schemas.delivery },
  { name: 'contract', schema_id: schemas.contract },
];

async function createBundle(
  api: TestApi,
  file: Buffer,
  split: unknown,
  opts: { type?: string; name?: string; citations?: boolean } = {},
): Promise<string> {
  const form = new FormData();
  form.append('type', opts.type ?? 'pdf');
  form.append('split', JSON.stringify(split));
  if (opts.citations) form.append('citations', 'true');
  form.append('metadata', JSON.stringify({ batch: 'mailroom-7' }));
  form.append('source', new Blob([new Uint8Array(file)]), opts.name ?? 'bundle.pdf');
  const res = await api.request('POST', '/v1/extractions', {
    body: form,
    headers: { prefer: 'respond-async' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data.id as string;
}

async function finalRecord(api: TestApi, id: string) {
  return waitFor(
    async () => {
      const res = await api.request('GET', `/v1/extractions/${id}`);
      const record = res.body.data as { status: string };
      return record.status === 'completed' || record.status === 'failed' ? res.body.data : false;
    },
    180_000,
    250,
  );
}

async function children(api: TestApi, parentId: string) {
  const res = await api.request('GET', `/v1/extractions?parent_id=${parentId}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.data.data as { id: string; pages: { from: number; to: number } }[];
}

const classifications = (requests: RecordedRequest[]) =>
  requests.filter((r) => {
    const schema = r.schema as { properties?: Record<string, unknown> } | undefined;
    return schema?.properties !== undefined && SPLIT_PAGES_KEY in schema.properties;
  });

const rowCount = async () =>
  Number((await db.query('select count(*)::int as n from extractions')).rows[0].n);

describe('splitting a bundle', () => {
  test('cuts a three-document PDF into children, each read with its own schema and cited in bundle pages', async ({
    api,
    model,
  }) => {
    const before = classifications(model.requests).length;
    const id = await createBundle(
      api,
      await textPdf(BUNDLE_PAGES),
      { classes: classes() },
      {
        citations: true,
      },
    );
    const parent = await finalRecord(api, id);
    expect(parent.status).toBe('completed');
    expect(parent.schemaId).toBeNull();
    expect(parent.split).toEqual({ classes: classes(), other: true });
    const documents = parent.result.documents as {
      class: string;
      pages: { from: number; to: number };
      confidence: number;
      extractionId: string | null;
    }[];
    expect(documents.map((d) => [d.class, d.pages.from, d.pages.to, d.confidence])).toEqual([
      ['invoice', 1, 2, 0.8],
      ['delivery_note', 3, 3, 0.95],
      ['contract', 4, 5, 0.95],
    ]);
    // Its own classification calls: three chunks of at most two pages, charged to it alone.
    expect(classifications(model.requests).length - before).toBe(3);
    expect(parent.totalTokens).toBeGreaterThan(0);
    expect(parent.charged).toBe(true);

    const listed = await children(api, id);
    expect(listed.map((c) => c.id).sort()).toEqual(documents.map((d) => d.extractionId).sort());
    const byClass = new Map<string, Record<string, any>>();
    for (const doc of documents) {
      const res = await api.request('GET', `/v1/extractions/${doc.extractionId}`);
      const child = res.body.data;
      expect(child.status).toBe('completed');
      expect(child.parentId).toBe(id);
      expect(child.pages).toEqual(doc.pages);
      expect(child.source).toMatchObject({ type: 'pdf', content: 'bundle.pdf' });
      expect(child.metadata).toEqual({ batch: 'mailroom-7' });
      expect(child.totalTokens).toBeGreaterThan(0);
      byClass.set(doc.class, child);
    }
    const invoice = byClass.get('invoice')!;
    expect(invoice.schemaId).toBe(schemas.invoice);
    expect(invoice.result).toMatchObject({
      invoice_number: 'INV-501',
      total: 120,
      payment_terms: '30 days net',
    });
    expect(invoice.citations['/invoice_number'].page).toBe(1);
    expect(invoice.citations['/payment_terms'].page).toBe(2);
    const delivery = byClass.get('delivery_note')!;
    expect(delivery.schemaId).toBe(schemas.delivery);
    expect(delivery.result).toEqual({ delivery_number: 'DN-77', carrier: 'Kestrel Logistics' });
    expect(delivery.citations['/carrier'].page).toBe(3);
    const contract = byClass.get('contract')!;
    expect(contract.result).toEqual({
      party_a: 'Northwind Traders',
      governing_law: 'the laws of Ontario',
    });
    expect(contract.citations['/party_a']).toMatchObject({ grounded: true, page: 4 });
    expect(contract.citations['/governing_law']).toMatchObject({ grounded: true, page: 5 });
    // Two pages, past SPLIT_PAGES: read as page windows of its own PDF, numbered as the bundle.
    const windows = await db.query(
      'select first_page, last_page from extraction_window_pdfs where extraction_id = $1 order by window_index',
      [contract.id],
    );
    expect(windows.rows).toEqual([
      { first_page: 4, last_page: 4 },
      { first_page: 5, last_page: 5 },
    ]);

    // The list record names no schema for the bundle and echoes its split.
    const list = await api.request('GET', '/v1/extractions?limit=100');
    const row = list.body.data.data.find((r: { id: string }) => r.id === id);
    expect(row.input.schema_id).toBeNull();
    expect(row.input.split.classes.map((c: { name: string }) => c.name)).toEqual([
      'invoice',
      'delivery_note',
      'contract',
    ]);
    expect(row.output.documents).toHaveLength(3);
    // The bundle's own webhook, once, when it is final; each child fires its own.
    expect(await events(id)).toEqual([{ type: 'extraction.completed', status: 'completed' }]);
    for (const doc of documents)
      expect(await events(doc.extractionId!)).toEqual([
        { type: 'extraction.completed', status: 'completed' },
      ]);
  });

  test('a bundle given by URL is fetched once; its children read their own files', async ({
    api,
  }) => {
    const url = `${fixtures.url}/mail/bundle.pdf`;
    const res = await api.request('POST', '/v1/extractions', {
      json: { type: 'auto', source: url, split: { classes: classes() } },
      headers: { prefer: 'respond-async' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const parent = await finalRecord(api, res.body.data.id);
    expect(parent.status).toBe('completed');
    expect(parent.source).toMatchObject({ type: 'pdf', content: url, format: 'pdf' });
    expect(parent.result.documents).toHaveLength(3);
    const child = (
      await api.request('GET', `/v1/extractions/${parent.result.documents[2].extractionId}`)
    ).body.data;
    expect(child.source).toMatchObject({ type: 'pdf', content: url, file: { name: 'bundle.pdf' } });
    expect(child.result.party_a).toBe('Northwind Traders');
    expect(fixtures.requests.filter((r) => r.endsWith(' /mail/bundle.pdf'))).toHaveLength(1);
  });

  test('reads each class with its schema as it was at create, even once the schema is deleted', async ({
    api,
  }) => {
    const made = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Short invoice',
        structure: { type: 'object', properties: { total: { type: 'number' } } },
      },
    });
    const schemaId = made.body.data.id as string;
    const id = await createBundle(api, await textPdf([BUNDLE_PAGES[0]!]), {
      classes: [{ name: 'invoice', schema_id: schemaId }],
    });
    expect((await api.request('DELETE', `/v1/schemas/${schemaId}`)).status).toBe(200);
    const parent = await finalRecord(api, id);
    expect(parent.status).toBe('completed');
    const child = (
      await api.request('GET', `/v1/extractions/${parent.result.documents[0].extractionId}`)
    ).body.data;
    expect(child.status).toBe('completed');
    expect(child.schemaId).toBe(schemaId);
    expect(child.result).toEqual({ total: 120 });
  });

  test('a Word bundle is converted and cut into PDFs of its pages', async ({ api }) => {
    // One page per paragraph break: the lines of each page are paragraphs of their own.
    const paragraphs = BUNDLE_PAGES.flatMap((page, p) =>
      page.split('\n').map((text, i) => ({ text, newPage: p > 0 && i === 0 })),
    );
    const docx = await officeFile(flatTextDocument({ paragraphs }), 'docx');
    const id = await createBundle(
      api,
      docx,
      { classes: classes() },
      {
        type: 'document',
        name: 'bundle.docx',
      },
    );
    const parent = await finalRecord(api, id);
    expect(parent.status).toBe('completed');
    const documents = parent.result.documents as {
      class: string;
      pages: { from: number; to: number };
      extractionId: string;
    }[];
    expect(documents.map((d) => [d.class, d.pages.from, d.pages.to])).toEqual([
      ['invoice', 1, 2],
      ['delivery_note', 3, 3],
      ['contract', 4, 5],
    ]);
    const contract = (await api.request('GET', `/v1/extractions/${documents[2]!.extractionId}`))
      .body.data;
    expect(contract.source).toMatchObject({ type: 'pdf', content: 'bundle.docx' });
    expect(contract.result.governing_law).toBe('the laws of Ontario');
  });

  test('a bundle that cannot be read fails, uncharged, with no children', async ({ api }) => {
    const id = await createBundle(api, corruptPdf(), { classes: classes() });
    const parent = await finalRecord(api, id);
    expect(parent.status).toBe('failed');
    expect(parent.error.code).toMatch(/^SOURCE_/);
    expect(parent.charged).toBe(false);
    expect(await children(api, id)).toHaveLength(0);
    expect(await events(id)).toEqual([{ type: 'extraction.failed', status: 'failed' }]);
  });

  test('a class with no schema is only classified, and a first page of no class is other', async ({
    api,
  }) => {
    // Its pages shifted by one, page 3 starts a chunk: its title says it continues the invoice.
    const pdf = await textPdf([
      'Fax cover sheet\nTo: accounts',
      BUNDLE_PAGES[0]!,
      'INVOICE page 2 of 2\nPayment terms: 30 days net',
      ...BUNDLE_PAGES.slice(2),
    ]);
    const split = {
      classes: [
        { name: 'invoice', schema_id: schemas.invoice },
        { name: 'delivery_note' },
        { name: 'contract', schema_id: schemas.contract },
      ],
    };
    const id = await createBundle(api, pdf, split);
    const parent = await finalRecord(api, id);
    expect(parent.status).toBe('completed');
    const documents = parent.result.documents as {
      class: string;
      pages: { from: number; to: number };
      extractionId: string | null;
    }[];
    expect(documents.map((d) => [d.class, d.pages.from, d.pages.to])).toEqual([
      ['other', 1, 1],
      ['invoice', 2, 3],
      ['delivery_note', 4, 4],
      ['contract', 5, 6],
    ]);
    expect(documents[0]!.extractionId).toBeNull();
    expect(documents[2]!.extractionId).toBeNull();
    expect(documents[1]!.extractionId).not.toBeNull();
    expect(await children(api, id)).toHaveLength(2);
  });

  test('an image bundle is one page, its child reading a copy of the image', async ({ api }) => {
    const png = await textImagePng(['DELIVERY NOTE', 'Delivery number: DN-88', 'Carrier: Osprey'], {
      width: 1200,
      height: 700,
      fontSize: 40,
    });
    const id = await createBundle(
      api,
      png,
      { classes: [{ name: 'delivery_note', schema_id: schemas.delivery }] },
      { type: 'image', name: 'scan.png' },
    );
    const parent = await finalRecord(api, id);
    expect(parent.status).toBe('completed');
    const [doc] = parent.result.documents;
    expect(doc).toMatchObject({ class: 'delivery_note', pages: { from: 1, to: 1 } });
    const child = (await api.request('GET', `/v1/extractions/${doc.extractionId}`)).body.data;
    expect(child.status).toBe('completed');
    expect(child.source).toMatchObject({ type: 'image', content: 'scan.png' });
    expect(child.result.delivery_number).toBe('DN-88');
  });

  test('refuses bad splits naming the field, writing nothing', async ({ api }) => {
    const before = await rowCount();
    const pdf = `data:application/pdf;base64,${(await textPdf(['INVOICE'])).toString('base64')}`;
    const refused = async (body: Record<string, unknown>, field: string) => {
      const res = await api.request('POST', '/v1/extractions', { json: body });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    const split = { classes: [{ name: 'invoice', schema_id: schemas.invoice }] };
    await refused({ type: 'pdf', source: pdf, split, schema_id: schemas.invoice }, 'schema_id');
    await refused(
      { type: 'pdf', source: pdf, split: { classes: [{ name: 'Invoice' }, { name: 'invoice' }] } },
      'split.classes[1].name',
    );
    await refused(
      {
        type: 'pdf',
        source: pdf,
        split: {
          classes: [{ name: 'invoice', schema_id: '00000000-0000-4000-8000-000000000000' }],
        },
      },
      'split.classes[0].schema_id',
    );
    await refused(
      { type: 'pdf', source: pdf, split: { classes: [{ name: 'other' }] } },
      'split.classes[0].name',
    );
    await refused({ type: 'pdf', source: pdf, split: { classes: [] } }, 'split.classes');
    await refused({ type: 'text', source: 'INVOICE', split }, 'split');
    await refused({ type: 'pdf', source: pdf, split, priority: 'batch' }, 'split');
    await refused({ type: 'pdf', source: pdf, split: 'invoice' }, 'split');
    // Without split, schema_id is still required.
    await refused({ type: 'pdf', source: pdf }, 'schema_id');
    const form = new FormData();
    form.append('type', 'pdf');
    form.append('split', '{not json');
    form.append('source', new Blob([new Uint8Array(await textPdf(['INVOICE']))]), 'b.pdf');
    const res = await api.request('POST', '/v1/extractions', { body: form });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['split']);
    expect(await rowCount()).toBe(before);
    const list = await api.request('GET', '/v1/extractions?parent_id=nope');
    expect(list.status).toBe(422);
    expect(list.body.errors[0].field).toBe('parent_id');
  });

  test('deleting the bundle deletes its children, their files and jobs', async ({ api }) => {
    const id = await createBundle(api, await mixedPdf(BUNDLE_PAGES.map((text) => ({ text }))), {
      classes: classes(),
    });
    await finalRecord(api, id);
    const kids = await children(api, id);
    expect(kids).toHaveLength(3);
    const refs = await db.query(
      'select file_ref from extractions where parent_id = $1 and file_ref is not null',
      [id],
    );
    expect(refs.rows).toHaveLength(3);
    const del = await api.request('DELETE', `/v1/extractions/${id}`);
    expect(del.status).toBe(200);
    for (const kid of kids)
      expect((await api.request('GET', `/v1/extractions/${kid.id}`)).status).toBe(404);
    const left = await db.query(
      'select count(*)::int as n from blobs where ref = any($1::uuid[])',
      [refs.rows.map((r: { file_ref: string }) => r.file_ref)],
    );
    expect(left.rows[0].n).toBe(0);
  });
});
