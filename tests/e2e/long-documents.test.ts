/**
 * A document longer than one model call's input budget, through the whole service: the worker
 * splits it at page boundaries, extracts the chunks, merges them in document order, and records
 * the tokens of every call.
 */
import pg from 'pg';
import { describe, expect } from 'vitest';
import { startFixtureServer, textPdf } from '@xt/testkit/fixtures';
import { stackTest } from '../support/stack.ts';

const PAGES = 8;
// ~2,400 characters a page (≈600 tokens): two pages fill one 1,000-token chunk and a half.
const pageText = (n: number) =>
  `Line items of page ${n}: ITEM-${n}A and ITEM-${n}B. ` + `Filler text for page ${n}. `.repeat(90);

// Started first: the API and the worker are told its address.
const fixtures = await startFixtureServer({
  '/long.pdf': {
    body: await textPdf(Array.from({ length: PAGES }, (_, i) => pageText(i + 1))),
    contentType: 'application/pdf',
  },
});
const allow = `127.0.0.1:${fixtures.port}`;

const test = stackTest({
  model: {
    defaultBehaviour: {
      // Answers what a model would: the items present in the text it was given, in order, plus
      // the first page's ITEM-1A again so the merge has a duplicate to drop.
      respond: (request) => ({
        title: 'Quarterly items',
        items: [
          ...new Set(
            [...request.text.matchAll(/ITEM-\d+[AB]/g)].map((m) => m[0]).concat('ITEM-1A'),
          ),
        ],
      }),
    },
  },
  api: { SOURCE_ALLOWLIST: allow },
  worker: {
    SOURCE_ALLOWLIST: allow,
    MODEL_MAX_INPUT_TOKENS: '1000',
    MODEL_CHUNK_CONCURRENCY: '3',
    PREP_THREADS: '1',
  },
});

test.afterAll(() => fixtures.close());

describe('long documents', () => {
  test('splits a PDF over the budget into chunks, merges them in order and counts every call', async ({
    api,
    model,
  }) => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Items',
        structure: {
          type: 'object',
          properties: {
            title: { type: 'string', required: true },
            items: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schema.body.data.id, type: 'pdf', source: `${fixtures.url}/long.pdf` },
    });
    expect(res.status).toBe(200);

    const calls = model.requests;
    expect(calls.length).toBeGreaterThan(2);
    // Every page reached the model exactly once, none split across two calls.
    for (let n = 1; n <= PAGES; n++) {
      const holders = calls.filter((c) => c.text.includes(`--- Page ${n} ---`));
      expect(holders).toHaveLength(1);
    }
    const expected = Array.from({ length: PAGES }, (_, i) => [
      `ITEM-${i + 1}A`,
      `ITEM-${i + 1}B`,
    ]).flat();
    expect(res.body.data.output).toEqual({ title: 'Quarterly items', items: expected });

    const db = new pg.Client({ connectionString: api.database.url });
    await db.connect();
    const row = (
      await db.query('select total_tokens, charged from extractions where id = $1', [
        res.body.data.id,
      ])
    ).rows[0];
    await db.end();
    expect(Number(row.total_tokens)).toBe(res.body.data.totalTokens);
    expect(row.charged).toBe(true);
    // More than any single call could report: the sum over all chunk calls.
    expect(res.body.data.totalTokens).toBeGreaterThan(1000);
  });
});
