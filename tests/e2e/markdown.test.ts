/**
 * The `markdown` kind through the API and a worker (docs/sources.md#markdown): an uploaded
 * Markdown file's YAML front matter reaches the model as metadata lines at the head of the
 * source, its body as written (headings and tables kept); `auto` recognises it by name or by its
 * front matter; citations are offsets into the file as uploaded.
 */
import { describe, expect } from 'vitest';
import { stackTest } from '../support/stack.ts';
import { createInvoiceSchema } from '../support/schemas.ts';

const test = stackTest({ api: { EXTRACTION_WAIT_SECONDS: '60' } });

const invoice = `---
invoice: INV-42
vendor: Acme Ltd
tags: [support, march]
---
# Invoice INV-42

| Item    | Amount  |
| ------- | ------- |
| Support | 1250.50 |

Total due: 1250.50 EUR
`;

function upload(type: string, text: string, name: string, schemaId: string): FormData {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', type);
  form.append('citations', 'true');
  form.append('source', new Blob([text]), name);
  return form;
}

describe('Markdown with front matter', () => {
  test('auto reads a .md file as markdown: metadata, body and citations', async ({
    api,
    model,
  }) => {
    const schemaId = await createInvoiceSchema(api);
    model.reset();
    model.behave({ output: { total: 1250.5 } });
    const res = await api.request('POST', '/v1/extractions', {
      body: upload('auto', invoice, 'invoice.md', schemaId),
    });
    expect(res.status, res.text).toBe(200);
    const sent = model.requests[0]!.text;
    // The front matter as `key: value` lines inside the source, then the body as written.
    expect(sent).toContain(
      '<source>\ninvoice: INV-42\nvendor: Acme Ltd\ntags: support, march\n# Invoice INV-42',
    );
    expect(sent).toContain('| Support | 1250.50 |');
    expect(sent).not.toContain('---\ninvoice');

    const cited = res.body.data.citations['/total'];
    expect(cited).toMatchObject({ grounded: true, page: null, boxes: [] });
    expect(invoice.slice(cited.start, cited.end)).toBe(cited.quote);
    expect(cited.quote).toBe('1250.50');

    const single = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(single.body.data.source).toMatchObject({ type: 'markdown', format: 'md' });
  });

  test('a file named otherwise is recognised by its front matter', async ({ api, model }) => {
    const schemaId = await createInvoiceSchema(api);
    model.reset();
    model.behave({ output: { total: 1250.5 } });
    const res = await api.request('POST', '/v1/extractions', {
      body: upload('auto', invoice, 'invoice.txt', schemaId),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.citations['/total']).toMatchObject({ grounded: true, quote: '1250.50' });
    const single = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(single.body.data.source).toMatchObject({ type: 'markdown', format: 'md' });
  });

  test('front matter that is not YAML is read as text, whole', async ({ api, model }) => {
    const schemaId = await createInvoiceSchema(api);
    model.reset();
    model.behave({ output: { total: 7.25 } });
    const broken = '---\ninvoice: [INV-43\n---\nTotal due: 7.25 EUR\n';
    const res = await api.request('POST', '/v1/extractions', {
      body: upload('markdown', broken, 'broken.md', schemaId),
    });
    expect(res.status, res.text).toBe(200);
    expect(model.requests[0]!.text).toContain(`<source>\n${broken}`);
    const cited = res.body.data.citations['/total'];
    expect(broken.slice(cited.start, cited.end)).toBe('7.25');
  });
});
