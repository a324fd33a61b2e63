/**
 * Tables across pages, through the whole service: a statement of 6,000 rows over 240 pages,
 * its header row printed again on every page, comes back as one array with every row once and
 * in order, each value cited on its own page (the last row on page 240); and a statement whose
 * rows are cut at the page breaks comes back with each cut row joined once, also where the
 * break falls between two model calls. The PDFs are written by pdf-lib; the long one is read
 * by the stand-in model in oracle mode (only rows it finds in what it was sent).
 */
import { describe, expect } from 'vitest';
import type { Citation } from '@xt/contract';
import {
  longStatementPdf,
  type StatementRow,
  STATEMENT_STRUCTURE as STATEMENT,
} from '@xt/testkit/fixtures';
import { waitFor, type RecordedRequest } from '@xt/testkit';
import type { TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

const test = stackTest({
  model: { defaultBehaviour: { oracle: true } },
  api: { EXTRACTION_WAIT_SECONDS: '5' },
  worker: {
    // Many model calls per document: the merge of their tables is what is tested.
    MODEL_MAX_INPUT_TOKENS: '20000',
    MAX_MODEL_CALLS_PER_EXTRACTION: '200',
    MODEL_CHUNK_CONCURRENCY: '4',
  },
});

async function extract(
  api: TestApi,
  pdf: Buffer,
  citations: boolean,
): Promise<{ rows: StatementRow[]; citations: Record<string, Citation> }> {
  const schema = await api.request('POST', '/v1/schemas', {
    json: { name: 'Statement', structure: STATEMENT },
  });
  const form = new FormData();
  form.append('schema_id', schema.body.data.id);
  form.append('type', 'pdf');
  if (citations) form.append('citations', 'true');
  form.append('source', new Blob([new Uint8Array(pdf)]), 'statement.pdf');
  const created = await api.request('POST', '/v1/extractions', { body: form });
  expect([200, 202], created.text).toContain(created.status);
  const id: string = created.body.data.id;
  const done = await waitFor(
    async () => {
      const res = await api.request('GET', `/v1/extractions/${id}`);
      return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
    },
    1_000_000,
    1_000,
  );
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  return {
    rows: (done.result as { rows: StatementRow[] }).rows,
    citations: done.citations ?? {},
  };
}

describe('tables across pages', () => {
  test('6,000 rows over 240 pages: every row once, in order, the last cited on page 240', async ({
    api,
    model,
  }) => {
    const { pdf, rows } = await longStatementPdf({ pages: 240, rowsPerPage: 25 });
    const before = model.requests.length;
    const result = await extract(api, pdf, true);
    expect(model.requests.length - before).toBeGreaterThan(4);
    expect(result.rows).toHaveLength(6_000);
    expect(result.rows).toEqual(rows);
    const last = rows.length - 1;
    for (const field of ['date', 'description', 'amount']) {
      const citation = result.citations[`/rows/${last}/${field}`];
      expect(citation?.grounded, field).toBe(true);
      expect(citation?.page, field).toBe(240);
    }
    expect(result.citations['/rows/0/description']?.page).toBe(1);
  }, 1_200_000);

  test('rows cut at page breaks are joined once, also where the break ends a model call', async ({
    api,
    model,
  }) => {
    const { pdf, rows } = await longStatementPdf({ pages: 80, rowsPerPage: 25, splitRows: true });
    model.setDefaultBehaviour({ respond: readCutRows });
    try {
      const before = model.requests.length;
      const result = await extract(api, pdf, false);
      // Pages are cut between calls: at least one cut row had its halves in two calls.
      expect(model.requests.length - before).toBeGreaterThan(1);
      expect(result.rows).toHaveLength(rows.length);
      expect(result.rows).toEqual(rows);
    } finally {
      model.setDefaultBehaviour({ oracle: true });
    }
  }, 1_200_000);
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What a model does with a statement whose rows are cut at page breaks: a row's first cells at
 * a page's foot and its last cells at the next page's top are one row when it sees both; when
 * it was sent only one half (the break ends or starts its part of the document), it gives that
 * half with the other fields null.
 */
function readCutRows(request: RecordedRequest): { rows: Partial<Record<string, unknown>>[] } {
  const start = request.text.lastIndexOf('<source>');
  const end = request.text.lastIndexOf('</source>');
  const out: Partial<Record<string, unknown>>[] = [];
  let head: string[] | undefined;
  const row = (cells: (string | undefined)[]) => ({
    date: cells[0] ?? null,
    description: cells[1] ?? null,
    quantity: cells[2] === undefined ? null : Number(cells[2]),
    unit_price: cells[3] === undefined ? null : Number(cells[3]),
    amount: cells[4] === undefined ? null : Number(cells[4]),
  });
  for (const line of request.text.slice(start, end).split('\n')) {
    const cells = line
      .split(/\t| {2,}/)
      .map((c) => c.trim())
      .filter((c) => c !== '');
    if (cells.length === 5 && DATE.test(cells[0]!)) out.push(row(cells));
    else if (cells.length === 3 && DATE.test(cells[0]!)) head = cells;
    else if (cells.length === 2 && cells.every((c) => /^\d+\.\d\d$/.test(c))) {
      out.push(row(head ? [...head, ...cells] : [undefined, undefined, undefined, ...cells]));
      head = undefined;
    }
  }
  if (head) out.push(row(head));
  return { rows: out };
}
