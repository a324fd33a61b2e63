/**
 * Progress of a long document through the whole service (docs/api.md#progress): while its
 * chunks are worked, both records carry `progress`, pages finished of pages in all; it moves as
 * chunks answer, and is gone once the extraction is final. The stand-in model answers the
 * first page's chunk and holds the others until the test has seen the state in between.
 */
import { describe, expect } from 'vitest';
import { startFixtureServer, textPdf } from '@xt/testkit/fixtures';
import { waitFor } from '@xt/testkit';
import { stackTest } from '../support/stack.ts';

const PAGES = 8;
// ~2,400 characters a page (≈600 tokens): a 1,000-token budget holds one page per chunk.
const pageText = (n: number) =>
  `Items of page ${n}: ITEM-${n}. ` + `Filler for page ${n}. `.repeat(120);

const fixtures = await startFixtureServer({
  '/long.pdf': {
    body: await textPdf(Array.from({ length: PAGES }, (_, i) => pageText(i + 1))),
    contentType: 'application/pdf',
  },
});
const allow = `127.0.0.1:${fixtures.port}`;

let open!: () => void;
const held = new Promise<void>((resolve) => (open = resolve));

const test = stackTest({
  model: {
    defaultBehaviour: {
      respond: (request) => ({ items: [...request.text.matchAll(/ITEM-\d+/g)].map((m) => m[0]) }),
      // The chunk holding page 1 answers at once; every other waits for the test.
      gate: (request) => (request.text.includes('--- Page 1 ---') ? undefined : held),
    },
  },
  api: { SOURCE_ALLOWLIST: allow },
  worker: {
    SOURCE_ALLOWLIST: allow,
    MODEL_MAX_INPUT_TOKENS: '1000',
    MODEL_CHUNK_CONCURRENCY: '2',
    PREP_THREADS: '1',
  },
});

test.afterAll(() => {
  open();
  return fixtures.close();
});

describe('progress', () => {
  test('both records show pages finished while processing, and nothing once final', async ({
    api,
  }) => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Items',
        structure: {
          type: 'object',
          properties: { items: { type: 'array', items: { type: 'string' } } },
        },
      },
    });
    const created = await api.request('POST', '/v1/extractions', {
      headers: { Prefer: 'respond-async' },
      json: { schema_id: schema.body.data.id, type: 'pdf', source: `${fixtures.url}/long.pdf` },
    });
    expect(created.status).toBe(202);
    const id: string = created.body.data.id;

    // Page 1's chunk has answered; the others are held: the records say so.
    const single = await waitFor(async () => {
      const res = await api.request('GET', `/v1/extractions/${id}`);
      const progress = res.body.data.progress;
      return progress?.pagesDone > 0 ? res.body.data : undefined;
    }, 120_000);
    expect(single.status).toBe('processing');
    expect(single.progress).toEqual({ pagesDone: 1, pagesTotal: PAGES });
    const list = await api.request('GET', '/v1/extractions');
    const item = list.body.data.data.find((r: { id: string }) => r.id === id);
    expect(item.status).toBe('processing');
    expect(item.progress).toEqual({ pagesDone: 1, pagesTotal: PAGES });

    open();
    const done = await waitFor(async () => {
      const res = await api.request('GET', `/v1/extractions/${id}`);
      return res.body.data.status === 'completed' ? res.body.data : undefined;
    }, 120_000);
    expect(done.progress).toBeUndefined();
    expect(done.result.items).toEqual(Array.from({ length: PAGES }, (_, i) => `ITEM-${i + 1}`));
    const after = await api.request('GET', '/v1/extractions');
    expect(after.body.data.data.find((r: { id: string }) => r.id === id).progress).toBeUndefined();
  }, 300_000);
});
