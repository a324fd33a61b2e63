/**
 * The servers people run instead of OpenAI, through the whole service (issue #36): each
 * stand-in behaves as a popular server does (a 4k window cutting long prompts silently,
 * `json_schema` refused, `response_format` ignored with the JSON in a fence, request fields
 * refused), is probed on first use, and answers only from what reached it. Every mode gets the
 * same four extractions: a short invoice, a 100,000-character contract with facts at its start,
 * middle and end, and a cited extraction; each must come back right, and no request may be
 * larger than the window the server tells.
 */
import { describe, expect } from 'vitest';
import { POPULAR_SERVERS } from '@xt/testkit';
import { scannedPdf } from '@xt/testkit/fixtures';
import { filler, startDialects } from '../support/dialects.ts';
import type { TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

const dialects = await startDialects(POPULAR_SERVERS);

const test = stackTest({
  api: { MODEL_ENDPOINTS: dialects.endpoints },
  // SPLIT_PAGES 1: the two-page scan below is worked as page windows.
  worker: { MODEL_ENDPOINTS: dialects.endpoints, JOB_ATTEMPTS: '2', SPLIT_PAGES: '1' },
});
test.afterAll(() => dialects.close());

const invoice = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string', required: true },
    vendor_name: { type: 'string' },
    total: { type: 'number' },
  },
};
const contract = {
  type: 'object',
  properties: {
    party_a: { type: 'string' },
    effective_date: { type: 'string' },
    governing_law: { type: 'string' },
  },
};
const invoiceText = 'Invoice number: INV-1042\nVendor name: Kestrel Logistics\nTotal: 1250.50\n';
const scan = `data:application/pdf;base64,${(
  await scannedPdf(['Invoice number: INV-2077\nVendor name: Harbour Freight\nTotal: 310.25'])
).toString('base64')}`;
const twoPageScan = `data:application/pdf;base64,${(
  await scannedPdf([
    'Invoice number: INV-3088\nVendor name: Osprey Mills',
    'Total: 99.75\nThank you for your business',
  ])
).toString('base64')}`;
// 100,000 characters: a fact at the start, one in the middle, one at the end.
const contractText = [
  'Party A: Northwind Traders',
  filler(49_000, 1),
  'Effective date: 2026-03-01',
  filler(49_000, 2),
  'Governing law: the laws of Ontario',
].join('\n');

async function schemaId(api: TestApi, name: string, structure: unknown) {
  const res = await api.request('POST', '/v1/schemas', { json: { name, structure } });
  return res.body.data.id as string;
}

describe.each(Object.keys(dialects.servers))('a %s server', (model) => {
  const server = dialects.servers[model]!;

  test('reads a short invoice', async ({ api }) => {
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: await schemaId(api, 'Invoice', invoice),
        type: 'text',
        source: invoiceText,
        model,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.output).toEqual({
      invoice_number: 'INV-1042',
      vendor_name: 'Kestrel Logistics',
      total: 1250.5,
    });
    // it was probed, once, apart from the extraction's calls
    expect(server.probes.length).toBeGreaterThan(0);
  });

  test('reads a 100,000-character contract whole: start, middle and end', async ({ api }) => {
    const before = server.requests.length;
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: await schemaId(api, 'Contract', contract),
        type: 'text',
        source: contractText,
        model,
      },
      headers: { prefer: 'wait=120' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.output).toEqual({
      party_a: 'Northwind Traders',
      effective_date: '2026-03-01',
      governing_law: 'the laws of Ontario',
    });
    const calls = server.requests.slice(before);
    if (model.includes('4k')) {
      // in pieces, each within the window the server told (4 characters a token, as it counts)
      expect(calls.length).toBeGreaterThan(5);
      for (const call of calls) expect(JSON.stringify(call.body).length / 4).toBeLessThan(4_096);
    }
  });

  test('reads a scanned invoice', async ({ api }) => {
    const before = server.requests.length;
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: await schemaId(api, 'Invoice', invoice),
        type: 'pdf',
        source: scan,
        model,
        citations: true,
      },
      headers: { prefer: 'wait=120' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.output).toEqual({
      invoice_number: 'INV-2077',
      vendor_name: 'Harbour Freight',
      total: 310.25,
    });
    // page and boxes from the OCR, whichever read the page
    expect(res.body.data.citations['/vendor_name']).toMatchObject({ grounded: true, page: 1 });
    expect(res.body.data.citations['/vendor_name'].boxes.length).toBeGreaterThan(0);
    const calls = server.requests.slice(before);
    if (model.includes('text-only')) {
      for (const call of calls) expect(call.images).toEqual([]);
      expect(res.body.data.warnings).toEqual([
        expect.objectContaining({ code: 'IMAGES_READ_AS_TEXT' }),
      ]);
    } else {
      expect(calls.some((call) => call.images.length > 0)).toBe(true);
    }
  });

  test('reads a two-page scan in page windows, and says so when it went as text', async ({
    api,
  }) => {
    const before = server.requests.length;
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: await schemaId(api, 'Invoice', invoice),
        type: 'pdf',
        source: twoPageScan,
        model,
      },
      headers: { prefer: 'wait=120' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.output).toMatchObject({ invoice_number: 'INV-3088', total: 99.75 });
    const calls = server.requests.slice(before);
    if (model.includes('text-only')) {
      for (const call of calls) expect(call.images).toEqual([]);
      // One warning for the document, counting both windows' pages.
      expect(res.body.data.warnings).toEqual([
        expect.objectContaining({
          code: 'IMAGES_READ_AS_TEXT',
          message: expect.stringContaining('2 pages were read with OCR'),
        }),
      ]);
    } else {
      expect(res.body.data.warnings ?? []).toEqual([]);
    }
  });

  test('cites what it found', async ({ api }) => {
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: await schemaId(api, 'Invoice', invoice),
        type: 'text',
        source: `Second copy.\n${invoiceText}`,
        model,
        citations: true,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.output.vendor_name).toBe('Kestrel Logistics');
    const citation = res.body.data.citations['/vendor_name'];
    expect(citation).toMatchObject({ grounded: true, quote: 'Kestrel Logistics' });
    expect(citation.confidence).toBeGreaterThan(0.5);
  });
});

describe('what each server was sent', () => {
  test('json_schema refused: the schema goes in the prompt, the answer as json_object', () => {
    const sent = dialects.servers['json-object-only']!.requests.at(-1)!;
    expect((sent.body as { response_format?: unknown }).response_format).toEqual({
      type: 'json_object',
    });
    expect(sent.text).toContain('"vendor_name"');
  });

  test('refused fields are not sent again', () => {
    for (const sent of dialects.servers['strict-fields']!.requests) {
      expect(sent.body).not.toHaveProperty('logprobs');
      expect(sent.body).not.toHaveProperty('prompt_cache_key');
      expect(sent.body).not.toHaveProperty('max_completion_tokens');
    }
  });
});
