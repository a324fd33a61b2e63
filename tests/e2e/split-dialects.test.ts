/**
 * Splitting a bundle through the servers people run (docs/split.md, docs/models.md): the
 * classification call is a model call like any other, so a server with a 4k window that cuts
 * long prompts silently, one that refuses `json_schema`, one that answers in prose with the JSON
 * in a fence, one that refuses request fields, all must classify every page of a bundle whose
 * pages together are larger than the smallest window. A page the model never saw would be a
 * document silently missing from the parent's result.
 * Real API, worker, PostgreSQL and Redis; each stand-in classifies pages by their titles from
 * what reached it.
 */
import { describe, expect } from 'vitest';
import type { TestApi } from '@xt/api/testing';
import { POPULAR_SERVERS, waitFor } from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { filler, startDialects } from '../support/dialects.ts';
import { stackTest } from '../support/stack.ts';

const dialects = await startDialects(POPULAR_SERVERS);

const test = stackTest({
  api: { MODEL_ENDPOINTS: dialects.endpoints },
  worker: { MODEL_ENDPOINTS: dialects.endpoints, JOB_ATTEMPTS: '2' },
});
test.afterAll(() => dialects.close());

// Twelve pages of about 1,600 characters, of which a classification reads the first 600 of
// each: some 2,000 tokens with the classes, more than a 4k window leaves for the source, in one
// chunk of the default 40 pages. Four documents. Pages 4, 7 and 10 name no class and continue
// the document before them: wherever the halving of a chunk puts an edge (before page 7, or
// before 4, 7 and 10), such a page must still be read as a continuation.
const TITLES = [
  'INVOICE INV-1',
  'Terms of payment',
  'Remittance details',
  'Bank details',
  'CONTRACT',
  'CONTRACT page 2 of 3',
  'Signatures',
  'DELIVERY NOTE',
  'Items delivered',
  'Received in good order',
  'INVOICE INV-2',
  'Remittance details',
];
const bundle = await textPdf(TITLES.map((title, i) => `${title}\n${filler(1_600, i * 31)}`));
const EXPECTED = [
  { class: 'invoice', pages: { from: 1, to: 4 } },
  { class: 'contract', pages: { from: 5, to: 7 } },
  { class: 'delivery_note', pages: { from: 8, to: 10 } },
  { class: 'invoice', pages: { from: 11, to: 12 } },
];

/** Splits the bundle through `model` with `classes`, and answers the record once it is final. */
async function splitBundle(
  api: TestApi,
  model: string,
  classes: { name: string; description?: string }[],
) {
  const form = new FormData();
  form.append('type', 'pdf');
  form.append('model', model);
  form.append('split', JSON.stringify({ classes }));
  form.append('source', new Blob([new Uint8Array(bundle)]), 'bundle.pdf');
  const created = await api.request('POST', '/v1/extractions', {
    body: form,
    headers: { prefer: 'respond-async' },
  });
  expect(created.status, created.text).toBe(202);
  const id = created.body.data.id as string;
  return waitFor(
    async () => {
      const res = await api.request('GET', `/v1/extractions/${id}`);
      const data = res.body.data as { status: string };
      return data.status === 'completed' || data.status === 'failed' ? res.body.data : false;
    },
    180_000,
    250,
  );
}

describe.each(Object.keys(dialects.servers))('a %s server', (model) => {
  const server = dialects.servers[model]!;

  test('classifies every page of a bundle larger than its window', async ({ api }) => {
    const before = server.requests.length;
    const record = await splitBundle(api, model, [
      { name: 'invoice' },
      { name: 'contract' },
      { name: 'delivery_note' },
    ]);
    expect(record.status, JSON.stringify(record.error)).toBe('completed');
    const documents = (record.result as { documents: { class: string; pages: unknown }[] })
      .documents;
    expect(documents.map((d) => ({ class: d.class, pages: d.pages }))).toEqual(EXPECTED);
    const calls = server.requests.slice(before);
    if (model.includes('4k')) {
      // in halves, each within the window the server told (4 characters a token, as it counts)
      expect(calls.length).toBeGreaterThan(1);
      for (const call of calls) expect(JSON.stringify(call.body).length / 4).toBeLessThan(4_096);
    } else {
      expect(calls).toHaveLength(1);
    }
  });
});

test('fails a split whose classes alone fill a 4k window, saying so, uncharged and unsent', async ({
  api,
}) => {
  const server = dialects.servers['ollama-4k']!;
  const before = server.requests.length;
  // Twenty classes of a thousand characters each, the most a create takes: some 5,000 tokens
  // before any page, more than the window holds.
  const classes = Array.from({ length: 20 }, (_, i) => ({
    name: `kind_${i + 1}`,
    description: filler(1_000, i * 17).slice(0, 1_000),
  }));
  const record = await splitBundle(api, 'ollama-4k', classes);
  expect(record.status).toBe('failed');
  expect(record.error.code).toBe('MODEL_CONTEXT_TOO_SMALL');
  expect(record.error.message).toContain('(4096 tokens)');
  expect(record.error.message).toContain("shorten the classes' descriptions");
  expect(record.charged).toBe(false);
  // Known from the server's own report of its window: nothing was sent to be cut.
  expect(server.requests.slice(before)).toHaveLength(0);
});
