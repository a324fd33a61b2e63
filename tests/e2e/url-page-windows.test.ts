/**
 * A long `pdf` or `document` given by URL worked as page windows
 * (docs/scaling.md#one-large-document): the extraction's job fetches the URL once (a document
 * converted once), cuts each window's pages into a PDF of its own, and the windows read only
 * those; none fetches the URL. `auto` is windowed when the content is a long
 * PDF, and the row says what it was found to be. A short one stays one job, fetched once too.
 * The same bytes at another address complete from the earlier answer before anything is cut.
 */
import { describe, expect } from 'vitest';
import {
  flatTextDocument,
  longStatementPdf,
  officeFile,
  startFixtureServer,
  type FixtureRoute,
  type StatementRow,
  STATEMENT_STRUCTURE as STATEMENT,
} from '@xt/testkit/fixtures';
import type { RecordedRequest } from '@xt/testkit';
import type { TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';
import { finished, pagesOf, query, windowPdfs } from '../support/windows.ts';

const SPLIT = 10;
const ROWS_PER_PAGE = 4;

const long = await longStatementPdf({ pages: 30, rowsPerPage: ROWS_PER_PAGE });
// Other bytes (fewer pages), so that nothing is reused from the document above.
const autoLong = await longStatementPdf({ pages: 20, rowsPerPage: ROWS_PER_PAGE });
const short = await longStatementPdf({ pages: 6, rowsPerPage: ROWS_PER_PAGE });
const pdfRoute = (body: Buffer) => ({ body, contentType: 'application/pdf' });
// Read when a request arrives: a test adds the route of a file it makes itself.
const routes: Record<string, FixtureRoute> = {
  '/long.pdf': pdfRoute(long.pdf),
  '/elsewhere/long-copy.pdf': pdfRoute(long.pdf),
  '/auto-long': pdfRoute(autoLong.pdf),
  '/short.pdf': pdfRoute(short.pdf),
};
const fixtures = await startFixtureServer(routes);
const allow = `127.0.0.1:${fixtures.port}`;

const test = stackTest({
  model: { defaultBehaviour: { oracle: true } },
  // Answers are reused (the test stack's default is 0: not at all).
  api: { SOURCE_ALLOWLIST: allow, CACHE_MAX_AGE_SECONDS: '604800' },
  worker: { SOURCE_ALLOWLIST: allow, SPLIT_PAGES: String(SPLIT), PREP_THREADS: '1' },
});

test.afterAll(async () => {
  await fixtures.close();
});

/** How often the fixture server was asked for `path`. */
const fetchesOf = (path: string) => fixtures.requests.filter((r) => r.endsWith(` ${path}`));

async function submit(
  api: TestApi,
  type: 'pdf' | 'document' | 'auto',
  path: string,
  structure: unknown = STATEMENT,
): Promise<string> {
  const schema = await api.request('POST', '/v1/schemas', {
    json: { name: 'Statement', structure },
  });
  const created = await api.request('POST', '/v1/extractions', {
    json: { schema_id: schema.body.data.id, type, source: `${fixtures.url}${path}` },
    headers: { Prefer: 'respond-async' },
  });
  expect([200, 202], created.text).toContain(created.status);
  return created.body.data.id as string;
}

/** The windows' stored answers (first page each) and the tokens the row was charged. */
async function windowRows(api: TestApi, id: string) {
  const windows = await query<{ first_page: number; tokens: number }>(
    api,
    'select first_page, tokens from extraction_windows where extraction_id = $1 order by window_index',
    [id],
  );
  const [row] = await query<{ total_tokens: string }>(
    api,
    'select total_tokens from extractions where id = $1',
    [id],
  );
  return {
    firstPages: windows.map((w) => w.first_page),
    windowTokens: windows.reduce((n, w) => n + w.tokens, 0),
    totalTokens: Number(row?.total_tokens),
  };
}

/** Every request carried pages of one window only, and every window's pages were sent. */
function expectWindowedRequests(requests: RecordedRequest[], pagesTotal: number) {
  const sent = requests.filter((r) => pagesOf(r).length > 0);
  const windowsSeen = new Set<number>();
  const pagesSeen: number[] = [];
  for (const r of sent) {
    const windows = new Set(pagesOf(r).map((p) => Math.floor((p - 1) / SPLIT)));
    expect([...windows], `a request carried pages ${pagesOf(r).join(',')}`).toHaveLength(1);
    windowsSeen.add([...windows][0]!);
    pagesSeen.push(...pagesOf(r));
  }
  expect([...windowsSeen].sort()).toEqual(Array.from({ length: pagesTotal / SPLIT }, (_, w) => w));
  expect([...new Set(pagesSeen)].sort((a, b) => a - b)).toEqual(
    Array.from({ length: pagesTotal }, (_, i) => i + 1),
  );
}

describe('a long PDF given by URL', () => {
  test('is fetched once by the extraction job and worked as page windows that read only their own PDFs', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    const id = await submit(api, 'pdf', '/long.pdf');
    const done = await finished(api, id, 300_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect((done.result as { rows: StatementRow[] }).rows).toEqual(long.rows);
    expect(done.source).toMatchObject({ type: 'pdf', format: 'pdf' });

    // One fetch: by the extraction's job; no window fetched the URL.
    expect(fetchesOf('/long.pdf')).toEqual(['GET /long.pdf']);
    expect(await windowPdfs(api, id)).toEqual([
      { first: 1, last: 10, pages: 10 },
      { first: 11, last: 20, pages: 10 },
      { first: 21, last: 30, pages: 10 },
    ]);
    expectWindowedRequests(model.requests.slice(before), 30);
    const windows = await windowRows(api, id);
    expect(windows.firstPages).toEqual([1, 11, 21]);
    expect(windows.totalTokens).toBe(windows.windowTokens);
    expect(done.totalTokens).toBe(windows.windowTokens);
  }, 600_000);

  test('at another address completes from that answer before anything is cut, fetched once', async ({
    api,
    model,
  }) => {
    const original = await submit(api, 'pdf', '/long.pdf');
    expect((await finished(api, original, 300_000)).status).toBe('completed');
    const before = model.requests.length;
    const id = await submit(api, 'pdf', '/elsewhere/long-copy.pdf');
    const done = await finished(api, id, 300_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.reused).toMatchObject({ extractionId: expect.any(String) });
    expect((done.result as { rows: StatementRow[] }).rows).toEqual(long.rows);
    expect(model.requests.length).toBe(before);
    expect(fetchesOf('/elsewhere/long-copy.pdf')).toHaveLength(1);
    expect(await windowPdfs(api, id)).toEqual([]);
  }, 600_000);

  test('as `auto` is found a pdf, recorded so, and worked as page windows', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    const id = await submit(api, 'auto', '/auto-long');
    const done = await finished(api, id, 300_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.source).toMatchObject({ type: 'pdf', format: 'pdf' });
    expect((done.result as { rows: StatementRow[] }).rows).toEqual(autoLong.rows);
    expect(fetchesOf('/auto-long')).toHaveLength(1);
    expect((await windowPdfs(api, id)).map((w) => [w.first, w.last])).toEqual([
      [1, 10],
      [11, 20],
    ]);
    expectWindowedRequests(model.requests.slice(before), 20);
  }, 600_000);
});

describe('a long document given by URL', () => {
  test('is fetched and converted once by the extraction job and worked as page windows', async ({
    api,
    model,
  }) => {
    const PAGES = 3 * SPLIT;
    const docx = await officeFile(
      flatTextDocument({
        paragraphs: Array.from({ length: PAGES }, (_, i) => ({
          text: `Clause DOC-${i + 1} of the agreement.`,
          newPage: i > 0,
        })),
      }),
      'docx',
    );
    routes['/agreement.docx'] = {
      body: docx,
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    };
    model.setDefaultBehaviour({
      respond: (request) => ({ items: [...request.text.matchAll(/DOC-\d+/g)].map((m) => m[0]) }),
    });
    try {
      const before = model.requests.length;
      const id = await submit(api, 'document', '/agreement.docx', {
        type: 'object',
        properties: { items: { type: 'array', items: { type: 'string' } } },
      });
      const done = await finished(api, id, 300_000);
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      expect(done.result.items).toEqual(Array.from({ length: PAGES }, (_, i) => `DOC-${i + 1}`));
      expect(done.source).toMatchObject({ type: 'document', format: 'docx' });
      expect(fetchesOf('/agreement.docx')).toEqual(['GET /agreement.docx']);
      expect(await windowPdfs(api, id)).toEqual([
        { first: 1, last: 10, pages: 10 },
        { first: 11, last: 20, pages: 10 },
        { first: 21, last: 30, pages: 10 },
      ]);
      expectWindowedRequests(model.requests.slice(before), PAGES);
    } finally {
      model.setDefaultBehaviour({ oracle: true });
    }
  }, 600_000);
});

describe('a short PDF given by URL', () => {
  test('stays one job and is fetched once', async ({ api, model }) => {
    const before = model.requests.length;
    const id = await submit(api, 'pdf', '/short.pdf');
    const done = await finished(api, id, 300_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect((done.result as { rows: StatementRow[] }).rows).toEqual(short.rows);
    expect(fetchesOf('/short.pdf')).toEqual(['GET /short.pdf']);
    expect(await windowPdfs(api, id)).toEqual([]);
    expect(
      await query(api, 'select 1 from extraction_windows where extraction_id = $1', [id]),
    ).toEqual([]);
    const sent = model.requests.slice(before).filter((r) => pagesOf(r).length > 0);
    expect(sent.flatMap(pagesOf)).toEqual([1, 2, 3, 4, 5, 6]);
  }, 600_000);
});
