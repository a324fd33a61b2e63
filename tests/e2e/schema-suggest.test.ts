/**
 * A schema suggestion through the whole service: a PDF and a Markdown file uploaded to the real
 * API, read by a real worker process, the model stand-in drafting from their labels and tables.
 * The draft saved as a schema extracts as any schema does, and a repeat of the suggestion, like
 * that extraction, reuses the answers already paid for.
 */
import { expect } from 'vitest';
import { textPdf } from '@xt/testkit/fixtures';
import { stackTest } from '../support/stack.ts';

// Reuse on, as in production (the test default turns it off).
const test = stackTest({ api: { SUGGEST_WAIT_SECONDS: '90', CACHE_MAX_AGE_SECONDS: '3600' } });

const deliveryNote = [
  '# Delivery note',
  'Delivery number: DN-42',
  '取引先: 株式会社サンプル',
  '',
  '## Line items',
  '| Item | Quantity |',
  '|---|---|',
  '| Paper | 2 |',
  '| Toner | 1 |',
].join('\n');

test('suggests a schema from a PDF and a Markdown file, which then extracts as a schema', async ({
  api,
  model,
}) => {
  model.setDefaultBehaviour({ oracle: true });
  const pdf = await textPdf(['Invoice number: INV-7\nTotal due: 12.50 EUR']);
  const samples = () => {
    const form = new FormData();
    form.append(
      'files',
      new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }),
      'invoice.pdf',
    );
    form.append('files', new Blob([deliveryNote], { type: 'text/markdown' }), 'delivery.md');
    return form;
  };

  const res = await api.request('POST', '/v1/schemas/suggest', { body: samples() });
  expect(res.status).toBe(200);
  const { structure, samples: runs, usage } = res.body.data;
  expect(Object.keys(structure.properties)).toEqual([
    'invoice_number',
    'total_due',
    'delivery_number',
    '取引先',
    'line_items',
  ]);
  expect(structure.properties.line_items).toMatchObject({
    type: 'array',
    items: {
      type: 'object',
      properties: { item: { type: 'string' }, quantity: { type: 'integer' } },
    },
  });
  expect(runs[0].output).toMatchObject({ invoice_number: 'INV-7', total_due: 12.5 });
  expect(runs[0].fields.share).toBe(0.4);
  expect(runs[1].output).toMatchObject({
    取引先: '株式会社サンプル',
    line_items: [
      { item: 'Paper', quantity: 2 },
      { item: 'Toner', quantity: 1 },
    ],
  });
  expect(runs[1].fields).toMatchObject({ missing: ['invoice_number', 'total_due'], share: 0.6 });
  expect(usage.totalTokens).toBeGreaterThan(0);
  const calls = model.requests.length;

  // The same samples again: every answer is reused, nothing reaches the model, nothing is charged.
  const again = await api.request('POST', '/v1/schemas/suggest', { body: samples() });
  expect(again.status).toBe(200);
  expect(again.body.data.structure).toEqual(structure);
  expect(again.body.data.usage.totalTokens).toBe(0);
  expect(model.requests.length).toBe(calls);

  // Saved as it is, the draft is a schema like any other; its run on the PDF is already paid for.
  const schema = await api.request('POST', '/v1/schemas', {
    json: { name: 'Suggested', structure },
  });
  expect(schema.status).toBe(201);
  const form = new FormData();
  form.append('schema_id', schema.body.data.id);
  form.append('type', 'pdf');
  form.append('citations', 'true');
  form.append(
    'source',
    new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }),
    'invoice.pdf',
  );
  const extracted = await api.request('POST', '/v1/extractions', { body: form });
  expect(extracted.status).toBe(200);
  expect(extracted.body.data.output).toEqual(runs[0].output);
  expect(extracted.body.data.reused).toEqual({ extractionId: runs[0].extractionId });
});
