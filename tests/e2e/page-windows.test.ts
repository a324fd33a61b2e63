/**
 * A long PDF worked as page windows across worker processes (docs/scaling.md#one-large-document):
 * each window is its own job any worker takes, the extraction's job merges them in page order
 * and charges once for the sum of their tokens. Two worker processes, each taking one job at a
 * time and making one model call at a time, so two requests held by the stand-in at once come
 * from both processes. Faults: a window that fails once is retried alone; a delete while
 * windows are held stops them before their next model call; a worker killed with `kill -9`
 * while it holds a window has that window taken again, the others kept. Money: a window's
 * failed attempt's tokens count once. Fairness: another account's extraction is not queued
 * behind every window of one long document.
 */
import { Queue } from 'bullmq';
import { describe, expect } from 'vitest';
import type { Citation } from '@xt/contract';
import { EXTRACTION_QUEUE } from '@xt/queue';
import {
  flatTextDocument,
  longStatementPdf,
  mixedPdf,
  officeFile,
  redlinedDocx,
  type StatementRow,
  STATEMENT_STRUCTURE as STATEMENT,
} from '@xt/testkit/fixtures';
import { testRedisUrl, waitFor, type AppProcess, type RecordedRequest } from '@xt/testkit';
import { startTestWorker, type TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';
import { finished, pagesOf, query, windowPdfs } from '../support/windows.ts';

const PAGES = 100;
const SPLIT = 25;
const WINDOWS = PAGES / SPLIT;
const ROWS_PER_PAGE = 8;

const WORKER = {
  SPLIT_PAGES: String(SPLIT),
  WORKER_CONCURRENCY: '1',
  MODEL_CHUNK_CONCURRENCY: '1',
  // A window of 25 pages takes a few model calls: a delete can land between two of them.
  MODEL_MAX_INPUT_TOKENS: '1000',
  MAX_MODEL_CALLS_PER_EXTRACTION: '400',
  // A killed worker's window is handed on once its lock lapses.
  LOCK_DURATION_MS: '3000',
  STALLED_INTERVAL_MS: '1000',
  PREP_THREADS: '1',
  // Above one window's scanned pages (3), below the document's (6): the mixed document below.
  MAX_PDF_IMAGE_PAGES: '4',
};

const test = stackTest({ model: { defaultBehaviour: { oracle: true } }, worker: false });
const workers: AppProcess[] = [];
const { pdf, rows } = await longStatementPdf({ pages: PAGES, rowsPerPage: ROWS_PER_PAGE });

test.afterAll(async () => {
  for (const w of workers) await w.stop();
});

/** Starts the file's two workers the first time a test needs them. */
async function twoWorkers(api: TestApi, modelUrl: string): Promise<AppProcess[]> {
  while (workers.length < 2)
    workers.push(
      await startTestWorker(api, modelUrl, { ...WORKER, WORKER_NAME: `w${workers.length}` }),
    );
  return workers;
}

/** The window (0-based) a request belongs to, by the first page it carried. */
const windowOf = (request: RecordedRequest) => {
  const first = pagesOf(request)[0];
  return first === undefined ? undefined : Math.floor((first - 1) / SPLIT);
};

/** Requests that carried pages of the statement (every request of this file does). */
const statementRequests = (requests: RecordedRequest[]) =>
  requests.filter((r) => pagesOf(r).length > 0);

/** A gate that holds every request until `n` are held at once, then lets all through. */
function heldUntil(n: number) {
  let held = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let isOpen = false;
  return {
    opened,
    gate: () => {
      if (isOpen) return undefined;
      held += 1;
      if (held >= n) {
        isOpen = true;
        open();
      }
      return opened;
    },
  };
}

/** A gate the test opens itself; `held` counts the requests waiting at it. */
function manualGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const state = { held: 0, open: () => open() };
  return {
    state,
    gate: () => {
      state.held += 1;
      return opened;
    },
  };
}

/** Uploads `file` as `type` without waiting for it; its extraction's id. */
async function upload(
  api: TestApi,
  schemaId: string,
  source: { type: string; file: Buffer; name: string; citations: boolean },
): Promise<string> {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', source.type);
  if (source.citations) form.append('citations', 'true');
  form.append('source', new Blob([new Uint8Array(source.file)]), source.name);
  const created = await api.request('POST', '/v1/extractions', {
    body: form,
    headers: { Prefer: 'respond-async' },
  });
  expect([200, 202], created.text).toContain(created.status);
  return created.body.data.id as string;
}

async function submit(api: TestApi, citations: boolean, file = pdf): Promise<string> {
  const schema = await api.request('POST', '/v1/schemas', {
    json: { name: 'Statement', structure: STATEMENT },
  });
  return upload(api, schema.body.data.id, { type: 'pdf', file, name: 'statement.pdf', citations });
}

/** The windows stored for an extraction, and the tokens its row was charged. */
async function accounting(api: TestApi, id: string) {
  const windows = await query<{
    tokens: number;
    usage: { inputTokens: number; outputTokens: number };
  }>(
    api,
    'select tokens, usage from extraction_windows where extraction_id = $1 order by window_index',
    [id],
  );
  const [row] = await query<{
    total_tokens: string;
    input_tokens: string;
    output_tokens: string;
    charged: boolean;
  }>(
    api,
    'select total_tokens, input_tokens, output_tokens, charged from extractions where id = $1',
    [id],
  );
  return {
    windows: windows.length,
    windowTokens: windows.reduce((n, w) => n + w.tokens, 0),
    windowInputTokens: windows.reduce((n, w) => n + w.usage.inputTokens, 0),
    windowOutputTokens: windows.reduce((n, w) => n + w.usage.outputTokens, 0),
    totalTokens: Number(row?.total_tokens),
    inputTokens: Number(row?.input_tokens),
    outputTokens: Number(row?.output_tokens),
    charged: row?.charged,
  };
}

describe('a long PDF as page windows', () => {
  test('completes with every row once and in order, cited on its own pages, charged once for the sum, worked by both processes', async ({
    api,
    model,
  }) => {
    const [first, second] = await twoWorkers(api, model.url);
    const both = heldUntil(2);
    model.setDefaultBehaviour({ oracle: true, gate: both.gate });
    const before = model.requests.length;
    const id = await submit(api, true);

    // Progress sums over the windows while they run.
    const progress = await waitFor(async () => {
      const res = await api.request('GET', `/v1/extractions/${id}`);
      return res.body.data.progress?.pagesTotal === PAGES ? res.body.data.progress : undefined;
    }, 300_000);
    expect(progress.pagesDone).toBeLessThan(PAGES);

    // Two requests held at once: one process takes one job and makes one call at a time.
    await both.opened;
    const done = await finished(api, id, 600_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.progress).toBeUndefined();
    expect((done.result as { rows: StatementRow[] }).rows).toEqual(rows);

    const citations = done.citations as Record<string, Citation>;
    const last = rows.length - 1;
    expect(citations['/rows/0/description']?.page).toBe(1);
    expect(citations[`/rows/${last}/description`]).toMatchObject({ grounded: true, page: PAGES });
    // The first row of the second window: page 26, as the document numbers it.
    expect(citations[`/rows/${SPLIT * ROWS_PER_PAGE}/description`]).toMatchObject({
      grounded: true,
      page: SPLIT + 1,
    });

    const sent = statementRequests(model.requests.slice(before));
    // A window takes several calls (what the delete below stops between).
    expect(sent.length).toBeGreaterThan(WINDOWS);
    // Every window sent its own pages, each page in one window's requests only.
    const byWindow = new Map<number, number[]>();
    for (const r of sent) {
      const w = windowOf(r)!;
      byWindow.set(w, [...(byWindow.get(w) ?? []), ...pagesOf(r)]);
    }
    expect([...byWindow.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const [w, pages] of byWindow) {
      expect(new Set(pages).size, `window ${w}`).toBe(pages.length);
      expect(Math.min(...pages)).toBe(w * SPLIT + 1);
      expect(Math.max(...pages)).toBe((w + 1) * SPLIT);
    }

    // Each window read a PDF of only its pages, cut once from the document, not the document.
    expect(await windowPdfs(api, id)).toEqual(
      Array.from({ length: WINDOWS }, (_, w) => ({
        first: w * SPLIT + 1,
        last: (w + 1) * SPLIT,
        pages: SPLIT,
      })),
    );

    const money = await accounting(api, id);
    expect(money.windows).toBe(WINDOWS);
    expect(money.charged).toBe(true);
    expect(money.totalTokens).toBe(money.windowTokens);
    expect(done.totalTokens).toBe(money.windowTokens);
    // Both processes stored windows of this extraction (their logs are written asynchronously).
    const stored = new RegExp(`"extractionId":"${id}"[^\\n]*"window stored"`);
    for (const w of [first!, second!]) await waitFor(() => stored.test(w.output()), 60_000);
  }, 900_000);

  test('a window that fails once is retried alone', async ({ api, model }) => {
    await twoWorkers(api, model.url);
    model.setDefaultBehaviour({ oracle: true });
    const before = model.requests.length;
    // The first call of the run fails as an unavailable provider would (retryable).
    model.behave({ status: 503 });
    const id = await submit(api, false);
    const done = await finished(api, id, 600_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect((done.result as { rows: StatementRow[] }).rows).toEqual(rows);

    const sent = statementRequests(model.requests.slice(before));
    const failedWindow = windowOf(sent[0]!)!;
    // Each page went out once, but the failed call's pages twice: nothing else was redone.
    const pageSends = new Map<number, number>();
    for (const r of sent) for (const p of pagesOf(r)) pageSends.set(p, (pageSends.get(p) ?? 0) + 1);
    const failedPages = new Set(pagesOf(sent[0]!));
    for (let p = 1; p <= PAGES; p++) {
      const expected = failedPages.has(p) ? 2 : 1;
      expect(pageSends.get(p), `page ${p} (window ${failedWindow} failed)`).toBe(expected);
    }
    const money = await accounting(api, id);
    expect(money.windows).toBe(WINDOWS);
    expect(money.totalTokens).toBe(money.windowTokens);
  }, 900_000);

  test('a window attempt that spent tokens and then failed: its tokens count once in the totals', async ({
    api,
    model,
  }) => {
    await twoWorkers(api, model.url);
    // The second window's first call answers with a usage of its own, its second call fails as
    // an unavailable provider would: that attempt spent exactly these tokens, then was retried.
    const FAILED = { prompt_tokens: 7000, completion_tokens: 1000 };
    let secondWindowCalls = 0;
    model.setDefaultBehaviour({
      oracle: true,
      pick: (request) => {
        if (windowOf(request) !== 1) return undefined;
        secondWindowCalls += 1;
        if (secondWindowCalls === 1) return { oracle: true, usage: FAILED };
        if (secondWindowCalls === 2) return { status: 503 };
        return undefined;
      },
    });
    try {
      const id = await submit(api, false);
      const done = await finished(api, id, 600_000);
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      expect((done.result as { rows: StatementRow[] }).rows).toEqual(rows);
      expect(secondWindowCalls).toBeGreaterThan(2);

      const money = await accounting(api, id);
      expect(money.windows).toBe(WINDOWS);
      expect(money.charged).toBe(true);
      // The stored windows (the retried attempt's answer among them) and the failed attempt, once.
      const failedTokens = FAILED.prompt_tokens + FAILED.completion_tokens;
      expect(money.totalTokens).toBe(money.windowTokens + failedTokens);
      expect(done.totalTokens).toBe(money.windowTokens + failedTokens);
      expect(money.inputTokens).toBe(money.windowInputTokens + FAILED.prompt_tokens);
      expect(money.outputTokens).toBe(money.windowOutputTokens + FAILED.completion_tokens);
    } finally {
      model.setDefaultBehaviour({ oracle: true });
    }
  }, 900_000);

  test("another account's small extraction, submitted after a long document was split, completes before that document's windows are all done", async ({
    api,
    model,
  }) => {
    await twoWorkers(api, model.url);
    // Eight windows: the two processes take two at a time, six wait in the queue.
    const LONG_WINDOWS = 8;
    const long = await longStatementPdf({ pages: LONG_WINDOWS * SPLIT, rowsPerPage: 2 });
    const hold = manualGate();
    model.setDefaultBehaviour({ oracle: true, gate: hold.gate });
    const before = model.requests.length;
    const longId = await submit(api, false, long.pdf);
    // Both processes are in a window of the long document: every window is queued by now.
    await waitFor(() => hold.state.held >= 2, 300_000);

    const schema = await api.request('POST', '/v1/schemas', {
      key: api.keys.other,
      json: {
        name: 'Note',
        structure: { type: 'object', properties: { note: { type: 'string' } } },
      },
    });
    const small = await api.request('POST', '/v1/extractions', {
      key: api.keys.other,
      json: { schema_id: schema.body.data.id, type: 'text', source: 'Note: the other account' },
      headers: { Prefer: 'respond-async' },
    });
    expect([200, 202], small.text).toContain(small.status);
    const smallId = small.body.data.id as string;
    // The later windows (4 on) wait until the small extraction is seen done: on a busy machine
    // the model's instant answers could otherwise finish all eight between two looks at it.
    // Served fairly, the small one comes before them; served behind them, it never comes, and
    // the wait for it fails.
    const later = manualGate();
    model.setDefaultBehaviour({
      oracle: true,
      gate: (r) => ((windowOf(r) ?? -1) >= 4 ? later.gate() : undefined),
    });
    hold.state.open();

    const smallDone = await waitFor(
      async () => {
        const res = await api.request('GET', `/v1/extractions/${smallId}`, {
          key: api.keys.other,
        });
        return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
      },
      300_000,
      200,
    );
    const windowsAtSmallDone = (await accounting(api, longId)).windows;
    later.state.open();
    expect(smallDone.status, JSON.stringify(smallDone.error)).toBe('completed');
    const longDone = await finished(api, longId, 600_000);
    expect(longDone.status, JSON.stringify(longDone.error)).toBe('completed');
    expect((longDone.result as { rows: StatementRow[] }).rows).toEqual(long.rows);

    // The small extraction came right after the windows being worked when it arrived (and at
    // most one more), not behind the long document's queued windows.
    expect(windowsAtSmallDone).toBeLessThan(LONG_WINDOWS);
    const sent = model.requests.slice(before);
    const smallAt = sent.findIndex((r) => r.text.includes('the other account'));
    expect(smallAt).toBeGreaterThanOrEqual(0);
    const laterWindows = sent.findIndex((r) => (windowOf(r) ?? -1) >= 4);
    expect(laterWindows).toBeGreaterThan(smallAt);
  }, 900_000);

  test('MAX_PDF_IMAGE_PAGES holds for the whole document, not per window', async ({
    api,
    model,
  }) => {
    await twoWorkers(api, model.url);
    // Two windows of 13 pages, each with 3 scanned pages: under the cap of 4 each, over it
    // together, so one job would refuse the document and so must its windows.
    const scans = await mixedPdf(
      Array.from({ length: SPLIT + 1 }, (_, i) =>
        i < 3 || i >= SPLIT - 2 ? { scan: `Scan ${i + 1}` } : { text: `Text page ${i + 1}` },
      ),
    );
    model.setDefaultBehaviour({ output: { rows: [] } });
    try {
      const before = model.requests.length;
      const id = await submit(api, false, scans);
      const done = await finished(api, id, 600_000);
      expect(done.status).toBe('failed');
      expect(done.error?.code, JSON.stringify(done.error)).toBe('SOURCE_TOO_LARGE');
      const images = model.requests.slice(before).reduce((n, r) => n + r.images.length, 0);
      expect(images).toBeLessThanOrEqual(4);
    } finally {
      model.setDefaultBehaviour({ oracle: true });
    }
  }, 900_000);

  test('a delete while windows are held stops them: nothing reaches the model afterwards', async ({
    api,
    model,
  }) => {
    const [first, second] = await twoWorkers(api, model.url);
    const hold = manualGate();
    model.setDefaultBehaviour({ oracle: true, gate: hold.gate });
    const before = model.requests.length;
    const id = await submit(api, false);
    // Both processes are in a window's model call.
    await waitFor(() => hold.state.held >= 2, 300_000);

    const deleted = await api.request('DELETE', `/v1/extractions/${id}`);
    expect(deleted.status).toBe(200);
    const atDelete = model.requests.length;
    hold.state.open();

    // The held windows notice the delete before their next call; the waiting ones are gone.
    const queue = new Queue(EXTRACTION_QUEUE, {
      connection: { url: testRedisUrl() },
      prefix: api.prefix,
    });
    try {
      await waitFor(async () => {
        const states = await Promise.all(
          [id, ...Array.from({ length: WINDOWS }, (_, i) => `${id}-w${i}`)].map((j) =>
            queue.getJobState(j),
          ),
        );
        return states.every((s) => s === 'completed' || s === 'unknown' || s === 'failed');
      }, 300_000);
    } finally {
      await queue.close();
    }
    // A held window said why it stopped (logs are written asynchronously).
    const stopped = new RegExp(`"extractionId":"${id}"[^\\n]*deleted`);
    await waitFor(() => stopped.test(first!.output() + second!.output()), 60_000);
    expect(model.requests.length).toBe(atDelete);
    expect(statementRequests(model.requests.slice(before)).length).toBeGreaterThanOrEqual(2);
    expect(
      await query(api, 'select 1 from extraction_windows where extraction_id = $1', [id]),
    ).toEqual([]);
  }, 900_000);

  test('a worker killed with kill -9 while it holds a window: the window is taken again, the rest kept, charged once', async ({
    api,
    model,
  }) => {
    const [doomed] = await twoWorkers(api, model.url);
    const hold = manualGate();
    model.setDefaultBehaviour({ oracle: true, gate: hold.gate });
    const before = model.requests.length;
    const id = await submit(api, false);
    await waitFor(() => hold.state.held >= 2, 300_000);

    await doomed!.stop('SIGKILL');
    workers.splice(0, 1);
    workers.push(await startTestWorker(api, model.url, { ...WORKER, WORKER_NAME: 'replacement' }));
    hold.state.open();
    model.setDefaultBehaviour({ oracle: true });

    const done = await finished(api, id, 600_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect((done.result as { rows: StatementRow[] }).rows).toEqual(rows);
    const money = await accounting(api, id);
    expect(money.windows).toBe(WINDOWS);
    expect(money.charged).toBe(true);
    expect(money.totalTokens).toBe(money.windowTokens);

    // Pages sent twice belong to one window: the killed worker's, taken again.
    const sent = statementRequests(model.requests.slice(before));
    const pageSends = new Map<number, number>();
    for (const r of sent) for (const p of pagesOf(r)) pageSends.set(p, (pageSends.get(p) ?? 0) + 1);
    const redone = new Set(
      [...pageSends].filter(([, n]) => n > 1).map(([p]) => Math.floor((p - 1) / SPLIT)),
    );
    expect(redone.size).toBe(1);
    for (let p = 1; p <= PAGES; p++) expect(pageSends.get(p), `page ${p}`).toBeGreaterThan(0);
  }, 900_000);

  test('a long document is converted once and each window reads a PDF of only its pages', async ({
    api,
    model,
  }) => {
    await twoWorkers(api, model.url);
    // Three windows of exactly SPLIT pages, so a page's window is (page - 1) / SPLIT.
    const DOC_PAGES = 3 * SPLIT;
    const docx = await officeFile(
      flatTextDocument({
        paragraphs: Array.from({ length: DOC_PAGES }, (_, i) => ({
          text: `Clause DOC-${i + 1} of the agreement.`,
          newPage: i > 0,
        })),
      }),
      'docx',
    );
    model.setDefaultBehaviour({
      respond: (request) => ({
        items: [...request.text.matchAll(/DOC-\d+/g)].map((m) => m[0]),
      }),
    });
    const before = model.requests.length;
    const schema = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Clauses',
        structure: {
          type: 'object',
          properties: { items: { type: 'array', items: { type: 'string' } } },
        },
      },
    });
    const id = await upload(api, schema.body.data.id, {
      type: 'document',
      file: docx,
      name: 'agreement.docx',
      citations: true,
    });
    const done = await finished(api, id, 600_000);
    model.setDefaultBehaviour({ oracle: true });
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.items).toEqual(Array.from({ length: DOC_PAGES }, (_, i) => `DOC-${i + 1}`));
    const citations = done.citations as Record<string, Citation>;
    expect(citations[`/items/${DOC_PAGES - 1}`]).toMatchObject({ grounded: true, page: DOC_PAGES });

    // Each window's requests carried only its pages of the converted PDF.
    const windows = Math.ceil(DOC_PAGES / SPLIT);
    const sent = statementRequests(model.requests.slice(before));
    expect(new Set(sent.map(windowOf))).toEqual(
      new Set(Array.from({ length: windows }, (_, i) => i)),
    );
    for (const r of sent) {
      const pages = pagesOf(r);
      expect(new Set(pages.map((p) => Math.floor((p - 1) / SPLIT))).size).toBe(1);
    }
    const money = await accounting(api, id);
    expect(money.windows).toBe(windows);
    expect(money.totalTokens).toBe(money.windowTokens);
    // The PDF it was converted to, once, cut into a PDF of its own for each window; the
    // whole converted PDF is not kept.
    expect(await windowPdfs(api, id)).toEqual(
      Array.from({ length: windows }, (_, w) => ({
        first: w * SPLIT + 1,
        last: (w + 1) * SPLIT,
        pages: SPLIT,
      })),
    );
    const whole = await query<{ ref: string }>(
      api,
      'select ref from extraction_window_sources where extraction_id = $1',
      [id],
    );
    expect(whole).toHaveLength(0);
  }, 900_000);
  test('a long redlined document read as page windows still says its changes were accepted', async ({
    api,
    model,
  }) => {
    await twoWorkers(api, model.url);
    // One page past a window: two windows, neither of which sees the file that had the changes.
    const docx = redlinedDocx({ pagesAfter: SPLIT });
    const schema = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Redlined',
        structure: { type: 'object', properties: { vendor: { type: 'string' } } },
      },
    });
    const id = await upload(api, schema.body.data.id, {
      type: 'document',
      file: docx,
      name: 'redlined.docx',
      citations: false,
    });
    const done = await finished(api, id, 600_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect((await accounting(api, id)).windows).toBe(2);
    expect(done.warnings).toContainEqual({
      code: 'REVISIONS_ACCEPTED',
      path: '',
      message: expect.stringMatching(/^The document has tracked changes/),
    });
  }, 900_000);
});
