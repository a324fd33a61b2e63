/**
 * An invoice of 22 fields for the review view's phone tests: a vendor, a number, nine lines of
 * an item and its amount, a total, and a currency found nowhere. Seeded as an extraction the
 * worker finished (completed, with citations and, for a PDF, the page preview it stored), on the
 * real API and PostgreSQL; no worker runs.
 */
import type pg from 'pg';
import { expect } from 'vitest';
import { createDb, type DbHandle } from '@xt/db';
import { openTestPool } from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import type { DashboardFixture } from './dashboard.ts';
import { storeTextPdfPreview, textPdfLine, textPdfSpan } from './review.ts';

export const ITEMS = [
  ['Ergonomic office chair', '867.00'],
  ['A4 copy paper, 500 sheets', '57.60'],
  ['Whiteboard markers, 12 pack', '14.90'],
  ['Desk lamp, LED', '39.00'],
  ['Cable ties, 100 pack', '6.40'],
  ['Monitor arm, single', '89.00'],
  ['Laptop stand, aluminium', '45.50'],
  ['USB-C hub, 7 ports', '32.99'],
  ['Noise-cancelling headset', '129.00'],
] as const;

export const LINES = [
  'Northwind Office Supplies GmbH',
  'Invoice INV-2026-0417',
  ...ITEMS.map(([item, amount]) => `${item} ........ ${amount} EUR`),
  'Total due: 1281.39 EUR',
];
export const TEXT = LINES.join('\n');

const OUTPUT = {
  vendor: 'Northwind Office Supplies GmbH',
  invoice_number: 'INV-2026-0417',
  lines: ITEMS.map(([item, amount]) => ({ item, amount: Number(amount) })),
  total: 1281.39,
  currency: 'EUR',
};

const STRUCTURE = {
  type: 'object',
  properties: {
    vendor: { type: 'string' },
    invoice_number: { type: 'string' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { item: { type: 'string' }, amount: { type: 'number' } },
      },
    },
    total: { type: 'number' },
    currency: { type: 'string' },
  },
};

/** Each value's quote and the line (from 0) it is on; `currency` is found nowhere. */
const QUOTES: [string, string, number][] = [
  ['/vendor', LINES[0]!, 0],
  ['/invoice_number', 'INV-2026-0417', 1],
  ...ITEMS.flatMap(([item, amount], i): [string, string, number][] => [
    [`/lines/${i}/item`, item, i + 2],
    [`/lines/${i}/amount`, amount, i + 2],
  ]),
  ['/total', '1281.39', LINES.length - 1],
];

const NOT_FOUND = {
  grounded: false,
  quote: null,
  page: null,
  boxes: [],
  start: null,
  end: null,
  confidence: 0.2,
};

/**
 * A PDF's citations: an item's box is its whole line (as pdf.js gives a line's items); an
 * amount's box is the amount alone, after its label and dots, as a Word invoice's table cell is.
 */
async function pdfCitations() {
  const cited = await Promise.all(
    QUOTES.map(async ([pointer, quote, line]) => [
      pointer,
      {
        grounded: true,
        quote,
        page: 1,
        boxes: [
          pointer.endsWith('/amount')
            ? await textPdfSpan(line, LINES[line]!, quote)
            : textPdfLine(line, LINES[line]!.length),
        ],
        start: null,
        end: null,
        confidence: 0.93,
      },
    ]),
  );
  return { ...Object.fromEntries(cited), '/currency': NOT_FOUND };
}

/** A text source's citations: the quote at its offsets, searched from its line's start. */
function textCitations() {
  const lineStart = (line: number) => LINES.slice(0, line).join('\n').length + (line ? 1 : 0);
  const cited = QUOTES.map(([pointer, quote, line]) => {
    const start = TEXT.indexOf(quote, lineStart(line));
    return [
      pointer,
      {
        grounded: true,
        quote,
        page: null,
        boxes: [],
        start,
        end: start + quote.length,
        confidence: 0.93,
      },
    ];
  });
  return { ...Object.fromEntries(cited), '/currency': NOT_FOUND };
}

export interface LongInvoices {
  /** The invoice as a PDF with its page preview stored. */
  pdf(): Promise<string>;
  /** The invoice as typed text. */
  text(): Promise<string>;
  close(): Promise<void>;
}

/** The schema, in account `acme`, and a way to seed the invoice's extractions of it. */
export async function longInvoices(dash: DashboardFixture): Promise<LongInvoices> {
  const db: pg.Pool = openTestPool(dash.api.database.url);
  const handle: DbHandle = createDb(dash.api.database.url, { max: 1 });
  const created = await dash.api.request('POST', '/v1/schemas', {
    json: { name: 'Long invoice', structure: STRUCTURE },
  });
  const schemaId = created.body.data.id as string;

  /** An extraction as the worker leaves it: completed with citations. */
  const completed = async (
    source: { type: string; source: string },
    citations: object,
    pageImages?: Record<string, string>,
  ): Promise<string> => {
    const res = await dash.api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, citations: true, ...source },
      headers: { prefer: 'respond-async' },
    });
    expect(res.status).toBe(202);
    const id = res.body.data.id as string;
    await db.query(
      `update extractions set status = 'completed', charged = true, output = $2, citations = $3,
         page_images = $4, finished_at = now() where id = $1`,
      [
        id,
        JSON.stringify(OUTPUT),
        JSON.stringify(citations),
        pageImages ? JSON.stringify(pageImages) : null,
      ],
    );
    return id;
  };

  return {
    async pdf() {
      const pdf = await textPdf([TEXT]);
      const preview = await storeTextPdfPreview(handle, LINES);
      return completed(
        { type: 'pdf', source: `data:application/pdf;base64,${pdf.toString('base64')}` },
        await pdfCitations(),
        { '1': preview },
      );
    },
    text: () => completed({ type: 'text', source: TEXT }, textCitations()),
    async close() {
      await handle.close();
      await db.end();
    },
  };
}
