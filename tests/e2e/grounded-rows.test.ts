/**
 * Citations of a table whose rows repeat their values, through the whole service
 * (docs/citations.md, "Which occurrence"): a statement where eight of twelve amounts are 2.00,
 * descriptions and dates recur, 155.47 is a unit price on one row and the amount on another, and
 * the heading holds digits inside a date, an account and a phone number. Every value must be
 * cited on its own row and in its own cell: by offsets in typed text, by boxes in a PDF drawn by
 * pdf-lib and in one laid out and exported by LibreOffice (checked against where poppler says
 * each word was drawn, not against the pdf.js the worker reads with). Real API, worker,
 * PostgreSQL and Redis; the model stand-in answers with the rows, quoting as a careless model
 * would (each value's first line), or reads them itself (oracle mode).
 */
import { describe, expect } from 'vitest';
import type { Citation } from '@xt/contract';
import {
  STATEMENT_COLUMNS,
  STATEMENT_HEADER,
  STATEMENT_HEADING,
  STATEMENT_ROWS,
  statementCells,
  statementPdf,
  statementText,
  STATEMENT_STRUCTURE as STATEMENT,
} from '@xt/testkit/fixtures';
import type { TestApi } from '@xt/api/testing';
import { officeTablePdf, pageWords, type PlacedWord } from '../support/office-pdf.ts';
import { stackTest } from '../support/stack.ts';

const test = stackTest({ api: { EXTRACTION_WAIT_SECONDS: '90' } });

let schemaId: string;

test.beforeAll(async ({ api }) => {
  const res = await api.request('POST', '/v1/schemas', {
    json: { name: 'Statement', structure: STATEMENT },
  });
  expect(res.status).toBe(201);
  schemaId = res.body.data.id;
}, 120_000);

async function extractPdf(api: TestApi, pdf: Buffer): Promise<Record<string, Citation>> {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', 'pdf');
  form.append('citations', 'true');
  form.append('source', new Blob([new Uint8Array(pdf)]), 'statement.pdf');
  const res = await api.request('POST', '/v1/extractions', { body: form });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.status).toBe('completed');
  return res.body.data.citations;
}

const centre = ([x0, y0, x1, y1]: readonly number[]) => [(x0! + x1!) / 2, (y0! + y1!) / 2];
const inside = ([x, y]: number[], [x0, y0, x1, y1]: readonly number[]) =>
  x! >= x0! && x! <= x1! && y! >= y0! && y! <= y1!;

function iou(a: readonly number[], b: readonly number[]): number {
  const [ax0 = 0, ay0 = 0, ax1 = 0, ay1 = 0] = a;
  const [bx0 = 0, by0 = 0, bx1 = 0, by1 = 0] = b;
  const w = Math.max(0, Math.min(ax1, bx1) - Math.max(ax0, bx0));
  const h = Math.max(0, Math.min(ay1, by1) - Math.max(ay0, by0));
  const inter = w * h;
  return inter / ((ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter);
}

/** Every pointer of the rows whose citation is not where `expected` says: none, when right. */
function misplaced(
  citations: Record<string, Citation>,
  check: (c: Citation, row: number, column: number) => boolean,
): string[] {
  const wrong: string[] = [];
  STATEMENT_ROWS.forEach((_, r) =>
    STATEMENT_COLUMNS.forEach((field, k) => {
      const pointer = `/rows/${r}/${field}`;
      const c = citations[pointer];
      if (!c?.grounded || !check(c, r, k)) wrong.push(`${pointer} → ${JSON.stringify(c)}`);
    }),
  );
  return wrong;
}

/**
 * The box of each cell of the table as poppler reads the page: the table's rows are the lines
 * of words after the header's, each cell the words that spell it, in order.
 */
function cellBoxes(words: PlacedWord[]): [number, number, number, number][][] {
  const lines: PlacedWord[][] = [];
  for (const w of [...words].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0])) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last[0]!.box[1] - w.box[1]) < 0.004) last.push(w);
    else lines.push([w]);
  }
  const header = lines.findIndex(
    (l) => l.map((w) => w.text).join(' ') === STATEMENT_HEADER.join(' '),
  );
  expect(header, 'the header row, as poppler reads it').toBeGreaterThanOrEqual(0);
  return STATEMENT_ROWS.map((row, r) => {
    const line = [...lines[header + 1 + r]!].sort((a, b) => a.box[0] - b.box[0]);
    let at = 0;
    return statementCells(row).map((text) => {
      const taken: PlacedWord[] = [];
      while (taken.map((w) => w.text).join(' ') !== text) {
        const next = line[at++];
        if (!next) throw new Error(`row ${r}: no words spell ${JSON.stringify(text)}`);
        taken.push(next);
      }
      return [
        Math.min(...taken.map((w) => w.box[0])),
        Math.min(...taken.map((w) => w.box[1])),
        Math.max(...taken.map((w) => w.box[2])),
        Math.max(...taken.map((w) => w.box[3])),
      ];
    });
  });
}

describe('a table whose rows repeat their values', () => {
  test('typed text: each value cited by offsets in its own row and column', async ({
    api,
    model,
  }) => {
    const content = statementText();
    model.behave({ output: { rows: STATEMENT_ROWS } });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: content, citations: true },
    });
    expect(res.status, res.text).toBe(200);
    const lines = content.split('\n');
    const firstRow = lines.indexOf(lines.find((l) => l.startsWith('Date'))!) + 1;
    const wrong = misplaced(res.body.data.citations, (c, r, k) => {
      const line = content.slice(0, c.start!).split('\n').length - 1;
      const cell = statementCells(STATEMENT_ROWS[r]!)[k]!;
      const column = c.start! - (content.lastIndexOf('\n', c.start! - 1) + 1);
      return line === firstRow + r && c.quote === cell && lines[line]!.indexOf(cell) <= column;
    });
    expect(wrong).toEqual([]);
    expect(res.body.data).not.toHaveProperty('warnings');
  });

  test('a PDF drawn by pdf-lib: each value boxed on its own cell', async ({ api, model }) => {
    const { pdf, rects } = await statementPdf();
    model.behave({ output: { rows: STATEMENT_ROWS } });
    const citations = await extractPdf(api, pdf);
    const wrong = misplaced(
      citations,
      (c, r, k) => c.page === 1 && c.boxes.length === 1 && iou(c.boxes[0]!, rects[r]![k]!) > 0.5,
    );
    expect(wrong).toEqual([]);
  });

  test('a PDF laid out by LibreOffice: each value boxed inside the cell poppler reads there', async ({
    api,
    model,
  }) => {
    const pdf = await officeTablePdf(STATEMENT_HEADING, [
      STATEMENT_HEADER,
      ...STATEMENT_ROWS.map(statementCells),
    ]);
    const cells = cellBoxes(await pageWords(pdf));
    model.behave({ output: { rows: STATEMENT_ROWS } });
    const citations = await extractPdf(api, pdf);
    const wrong = misplaced(
      citations,
      (c, r, k) =>
        c.page === 1 && c.boxes.length === 1 && inside(centre(c.boxes[0]!), cells[r]![k]!),
    );
    expect(wrong).toEqual([]);
  }, 240_000);

  test('the oracle’s own reading: rows as it read them, each cited on its row', async ({
    api,
    model,
  }) => {
    const { pdf, rects } = await statementPdf();
    model.behave({ oracle: true });
    const form = new FormData();
    form.append('schema_id', schemaId);
    form.append('type', 'pdf');
    form.append('citations', 'true');
    form.append('source', new Blob([new Uint8Array(pdf)]), 'statement.pdf');
    const res = await api.request('POST', '/v1/extractions', { body: form });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.output).toEqual({ rows: STATEMENT_ROWS });
    const wrong = misplaced(
      res.body.data.citations,
      (c, r, k) => c.page === 1 && iou(c.boxes[0]!, rects[r]![k]!) > 0.5,
    );
    expect(wrong).toEqual([]);
  });
});
