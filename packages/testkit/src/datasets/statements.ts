import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fixed2, isoDay, money, seeded } from './random.ts';

export interface Statement {
  account_number: string;
  opening_balance: number;
  closing_balance: number;
  transactions: Array<{ date: string; description: string; amount: number; balance: number }>;
}

export const STATEMENT_SCHEMA = {
  name: 'Bank statement',
  structure: {
    type: 'object',
    properties: {
      account_number: { type: 'string', required: true },
      opening_balance: { type: 'number' },
      closing_balance: { type: 'number' },
      transactions: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            date: { type: 'string', describe: 'ISO date, YYYY-MM-DD' },
            description: { type: 'string' },
            amount: { type: 'number', describe: 'negative for money out' },
            balance: { type: 'number' },
          },
        },
      },
    },
  },
};

const PAYEES = [
  'Card payment Corner Grocer',
  'Salary Kestrel Logistics',
  'Direct debit City Power',
  'Transfer to savings',
  'Card payment Rail Ticket Office',
  'Standing order Rent',
  'Refund Online Books',
  'Card payment Pharmacy',
  'Cash withdrawal',
  'Direct debit Mobile Phone',
];

export function makeStatement(rows: number, seed: number): Statement {
  const random = seeded(seed);
  const openingCents = random.int(100_000, 900_000);
  let balance = openingCents;
  const start = new Date('2025-01-01T00:00:00Z');
  const transactions = Array.from({ length: rows }, (_, i) => {
    const description = random.pick(PAYEES);
    const incoming = /^(Salary|Refund)/.test(description);
    const cents = incoming ? random.int(1_000, 300_000) : -random.int(100, 60_000);
    balance += cents;
    return {
      date: isoDay(start, Math.floor((i * 365) / Math.max(rows, 1))),
      description,
      amount: money(cents),
      balance: money(balance),
    };
  });
  return {
    account_number: `GB${String(random.int(10, 99))} XMPL ${String(random.int(100000, 999999))} ${String(random.int(10000000, 99999999))}`,
    opening_balance: money(openingCents),
    closing_balance: money(balance),
    transactions,
  };
}

const ROWS_PER_PAGE = 42;
const COLUMN_X = [60, 150, 400, 490];

/** A multi-page A4 statement with a text layer: the table header repeats on every page. */
export async function statementPdf(statement: Statement): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  doc.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pages = Math.max(1, Math.ceil(statement.transactions.length / ROWS_PER_PAGE));
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    let y = 790;
    page.drawText(`Statement page ${p + 1} of ${pages}`, { x: 60, y, size: 9, font });
    y -= 24;
    if (p === 0) {
      for (const line of [
        `Account number: ${statement.account_number}`,
        `Opening balance: ${fixed2(statement.opening_balance)}`,
      ]) {
        page.drawText(line, { x: 60, y, size: 11, font });
        y -= 18;
      }
      y -= 10;
    }
    ['Date', 'Description', 'Amount', 'Balance'].forEach((c, i) =>
      page.drawText(c, { x: COLUMN_X[i]!, y, size: 10, font: bold }),
    );
    y -= 16;
    for (const t of statement.transactions.slice(p * ROWS_PER_PAGE, (p + 1) * ROWS_PER_PAGE)) {
      [t.date, t.description, fixed2(t.amount), fixed2(t.balance)].forEach((c, i) =>
        page.drawText(c, { x: COLUMN_X[i]!, y, size: 10, font }),
      );
      y -= 16;
    }
    if (p === pages - 1) {
      page.drawText(`Closing balance: ${fixed2(statement.closing_balance)}`, {
        x: 60,
        y: y - 14,
        size: 11,
        font: bold,
      });
    }
  }
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}
