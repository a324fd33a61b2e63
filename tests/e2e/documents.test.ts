/**
 * Documents and presentations through the whole service (docs/sources.md#documents): a DOCX and
 * a PPTX, written by LibreOffice from content this file controls, uploaded and fetched with
 * `citations: true`. Every value comes back grounded with a page and boxes on the converted
 * pages, comments and speaker notes reach the model with their page, and the cited pages get
 * previews drawn from the converted PDF. Real API, worker, LibreOffice, PostgreSQL and Redis;
 * the model stand-in answers, quoting the source as a model would.
 */
import type pg from 'pg';
import sharp from 'sharp';
import { beforeAll, describe, expect } from 'vitest';
import type { Citation } from '@xt/contract';
import { openTestPool } from '@xt/testkit';
import type { TestApi } from '@xt/api/testing';
import {
  CJK_LINES,
  flatPresentation,
  missingGlyphPdf,
  flatTextDocument,
  officeFile,
  redlinedDocx,
  startFixtureServer,
} from '@xt/testkit/fixtures';
import { stackTest } from '../support/stack.ts';

const CONTRACT = flatTextDocument({
  paragraphs: [
    { text: 'Supply contract SC-2291', heading: true },
    { text: 'Supplier: Nordlicht GmbH' },
    {
      text: 'The contract value is 48,250.00 EUR.',
      comment: { author: 'Dana Reyes', text: 'Purchase order PO-7731 covers this.' },
    },
    {
      text: 'Delivery within 30 days.',
      footnote: 'Penalty clause reference FN-5521 applies.',
    },
  ],
});
const DECK = flatPresentation([
  {
    title: 'Quarterly review Q1',
    lines: ['Revenue 4.2 M EUR'],
    group: ['Region North', 'Region South'],
  },
  {
    title: 'Headcount',
    lines: ['Headcount 118'],
    notes: 'Attrition this quarter was 2.5 percent.',
  },
]);

let docx: Buffer;
let pptx: Buffer;
// Routes are looked up per request: the document is served once LibreOffice has written it.
const routes: Parameters<typeof startFixtureServer>[0] = {};
const fixtures = await startFixtureServer(routes);
beforeAll(async () => {
  [docx, pptx] = await Promise.all([officeFile(CONTRACT, 'docx'), officeFile(DECK, 'pptx')]);
  routes['/contract'] = { body: docx, contentType: 'application/octet-stream' };
}, 300_000);

const allow = `127.0.0.1:${fixtures.port}`;
const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '120', SOURCE_ALLOWLIST: allow },
  worker: { SOURCE_ALLOWLIST: allow, PREP_THREADS: '1' },
});

let db: pg.Pool;
test.beforeAll(({ api }) => {
  db = openTestPool(api.database.url);
});
test.afterAll(async () => {
  await db?.end();
  await fixtures.close();
});

async function schema(api: TestApi, properties: object) {
  const res = await api.request('POST', '/v1/schemas', {
    json: { name: `Doc ${Math.random()}`, structure: { type: 'object', properties } },
  });
  return res.body.data.id as string;
}

function upload(schemaId: string, type: string, bytes: Buffer, name: string): FormData {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', type);
  form.append('citations', 'true');
  form.append('source', new Blob([bytes]), name);
  return form;
}

function expectGrounded(citations: Record<string, Citation>, pointer: string, page: number) {
  const c = citations[pointer];
  expect(c, pointer).toMatchObject({ grounded: true, page });
  expect(c!.boxes.length, pointer).toBeGreaterThan(0);
}

async function previewPages(id: string): Promise<string[]> {
  const r = await db.query('select page_images from extractions where id = $1', [id]);
  return Object.keys((r.rows[0] as { page_images: object | null }).page_images ?? {}).sort();
}

describe('documents', () => {
  test('a DOCX: every value on its page with boxes, the comment and footnote sent', async ({
    api,
    model,
  }) => {
    const schemaId = await schema(api, {
      contract: { type: 'string' },
      supplier: { type: 'string' },
      value: { type: 'number' },
      purchase_order: { type: 'string' },
      clause: { type: 'string' },
    });
    model.setDefaultBehaviour({
      output: {
        contract: 'SC-2291',
        supplier: 'Nordlicht GmbH',
        value: 48250,
        purchase_order: 'PO-7731',
        clause: 'FN-5521',
      },
    });
    const res = await api.request('POST', '/v1/extractions', {
      body: upload(schemaId, 'document', docx, 'contract.docx'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe('completed');
    const sent = model.requests.at(-1)!.text;
    expect(sent).toContain('--- Page 1 ---');
    expect(sent).toMatch(/Comments on page 1:\n- Dana Reyes[^\n]*Purchase order PO-7731/);
    expect(sent).toContain('Penalty clause reference FN-5521 applies.');
    const citations = res.body.data.citations as Record<string, Citation>;
    for (const pointer of ['/contract', '/supplier', '/value', '/purchase_order', '/clause'])
      expectGrounded(citations, pointer, 1);
    expect(res.body.data.warnings).toBeUndefined();
    expect(await previewPages(res.body.data.id)).toEqual(['1']);
    const record = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(record.body.data.source).toMatchObject({ type: 'document', format: 'docx' });
  });

  test('a PPTX: slide values on their slide, a note on its notes page, previews of both', async ({
    api,
    model,
  }) => {
    const schemaId = await schema(api, {
      title: { type: 'string' },
      revenue: { type: 'string' },
      region: { type: 'string' },
      headcount: { type: 'number' },
      attrition: { type: 'string' },
    });
    model.setDefaultBehaviour({
      output: {
        title: 'Quarterly review Q1',
        revenue: '4.2 M EUR',
        region: 'Region South',
        headcount: 118,
        attrition: '2.5 percent',
      },
    });
    const res = await api.request('POST', '/v1/extractions', {
      body: upload(schemaId, 'auto', pptx, 'deck'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sent = model.requests.at(-1)!.text;
    expect(sent).toContain('Region South');
    expect(sent).toContain(
      'Speaker notes of page 2 (drawn on page 4):\nAttrition this quarter was 2.5 percent.',
    );
    const citations = res.body.data.citations as Record<string, Citation>;
    expectGrounded(citations, '/title', 1);
    expectGrounded(citations, '/revenue', 1);
    expectGrounded(citations, '/region', 1);
    expectGrounded(citations, '/headcount', 2);
    // Speaker notes are cited where they are drawn: slide 2's notes page, after the 2 slides.
    expectGrounded(citations, '/attrition', 4);
    expect(await previewPages(res.body.data.id)).toEqual(['1', '2', '4']);
    const [ref] = Object.values(
      (await db.query('select page_images from extractions where id = $1', [res.body.data.id]))
        .rows[0].page_images as Record<string, string>,
    );
    const jpeg = Buffer.concat(
      (await db.query('select data from blob_chunks where ref = $1 order by seq', [ref])).rows.map(
        (r: { data: Buffer }) => r.data,
      ),
    );
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg' });
    const record = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(record.body.data.source).toMatchObject({ type: 'document', format: 'pptx' });
  });

  test('a document by URL is fetched, converted and read the same way', async ({ api, model }) => {
    const schemaId = await schema(api, { value: { type: 'number' } });
    model.setDefaultBehaviour({ output: { value: 48250 } });
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schemaId,
        type: 'document',
        source: `${fixtures.url}/contract`,
        citations: true,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectGrounded(res.body.data.citations as Record<string, Citation>, '/value', 1);
  });

  test('a redlined DOCX reads as accepted, and its record says so', async ({ api, model }) => {
    const schemaId = await schema(api, { vendor: { type: 'string' } });
    model.setDefaultBehaviour({ output: { vendor: 'New Vendor GmbH' } });
    const res = await api.request('POST', '/v1/extractions', {
      body: upload(schemaId, 'document', redlinedDocx(), 'contract.docx'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sent = model.requests.at(-1)!.text;
    expect(sent).toContain('Vendor: New Vendor GmbH');
    expect(sent).not.toContain('Old Vendor Ltd');
    expectGrounded(res.body.data.citations as Record<string, Citation>, '/vendor', 1);
    const record = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(record.body.data.warnings).toEqual([
      {
        code: 'REVISIONS_ACCEPTED',
        path: '',
        message: expect.stringMatching(/^The document has tracked changes \(6 /),
      },
    ]);
  });

  test('a DOCX in Japanese, Chinese and Korean: values as written, each on its own line', async ({
    api,
    model,
  }) => {
    const lines = [...CJK_LINES.ja, ...CJK_LINES.zh, ...CJK_LINES.ko];
    const cjk = await officeFile(flatTextDocument({ paragraphs: lines }), 'docx');
    const schemaId = await schema(api, {
      ja_vendor: { type: 'string' },
      zh_vendor: { type: 'string' },
      ko_vendor: { type: 'string' },
    });
    const output = {
      ja_vendor: '株式会社テスト',
      zh_vendor: '北京测试有限公司',
      ko_vendor: '주식회사 테스트',
    };
    model.setDefaultBehaviour({ output });
    // The DOCX as LibreOffice lays it out with Noto CJK, and a PDF of the same lines as it
    // writes them without a CJK font (every character one missing glyph, the text in ActualText).
    for (const [type, bytes, name] of [
      ['document', cjk, 'invoice.docx'],
      ['pdf', missingGlyphPdf(lines), 'invoice.pdf'],
    ] as const) {
      const res = await api.request('POST', '/v1/extractions', {
        body: upload(schemaId, type, bytes, name),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const sent = model.requests.at(-1)!.text;
      for (const line of lines) expect(sent, name).toContain(line);
      const citations = res.body.data.citations as Record<string, Citation>;
      const tops = Object.keys(output).map((key) => {
        const c = citations[`/${key}`]!;
        expect(c, `${name} ${key}`).toMatchObject({
          grounded: true,
          page: 1,
          quote: output[key as keyof typeof output],
        });
        return c.boxes[0]![1];
      });
      // Each value is boxed on its own line, in the order the lines are on the page.
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      expect(new Set(tops).size).toBe(3);
      expect(await previewPages(res.body.data.id)).toEqual(['1']);
    }
  });
});
