import type { Citation, GroundingLine, GroundingSource } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { buildCitations } from './index.ts';

const text = (content: string): GroundingSource => ({ kind: 'text', content });

/** The 1-based line of a text source a citation starts on, and the cited text. */
function lineOf(content: string, c: Citation | undefined): [number, string] | null {
  if (!c?.grounded || c.start === null) return null;
  return [content.slice(0, c.start).split('\n').length, c.quote!];
}

function cite(source: GroundingSource, output: unknown, quotes?: Map<string, string>) {
  return buildCitations({ output, source, quotes: quotes ?? null });
}

const invoice = [
  'Invoice INV-2026-0117            Date: 2026-02-08',
  'Phone 555-123-4567               Account 12-3456-2',
  'Description        Qty   Unit price    Amount',
  'Cable ties           1       155.47    155.47',
  'Screws M4           12         0.25      3.00',
  'Cable ties           2        77.50    155.00',
  'Total                                  313.47',
].join('\n');
const invoiceLines = [
  { description: 'Cable ties', quantity: 1, unit_price: 155.47, amount: 155.47 },
  { description: 'Screws M4', quantity: 12, unit_price: 0.25, amount: 3 },
  { description: 'Cable ties', quantity: 2, unit_price: 77.5, amount: 155 },
];

describe('an array item’s values are located together, on its row', () => {
  it('cites each line of an invoice on its own row, never in the date or a number', () => {
    const { citations } = cite(text(invoice), { date: '2026-02-08', lines: invoiceLines });
    const at = (p: string) => lineOf(invoice, citations[p]);
    expect(at('/date')).toEqual([1, '2026-02-08']);
    for (const [k, row] of [4, 5, 6].entries()) {
      for (const field of ['description', 'quantity', 'unit_price', 'amount'])
        expect(at(`/lines/${k}/${field}`)?.[0], `/lines/${k}/${field}`).toBe(row);
    }
    expect(at('/lines/2/quantity')).toEqual([6, '2']);
  });

  it('gives equal values of one item their own cells, in the item’s order', () => {
    const { citations } = cite(text(invoice), { lines: invoiceLines });
    const row = invoice.split('\n')[3]!;
    const rowStart = invoice.indexOf(row);
    expect(citations['/lines/0/unit_price']!.start! - rowStart).toBe(row.indexOf('155.47'));
    expect(citations['/lines/0/amount']!.start! - rowStart).toBe(row.lastIndexOf('155.47'));
  });

  it('cites a statement whose rows repeat one amount row by row', () => {
    const rows: [string, string, string][] = [
      ['01.02.2026', 'Coffee', '2.00'],
      ['02.02.2026', 'Bagel', '3.50'],
      ['03.02.2026', 'Coffee', '2.00'],
      ['04.02.2026', 'Coffee', '2.00'],
      ['05.02.2026', 'Tea', '2.00'],
      ['06.02.2026', 'Muffin', '4.25'],
      ['07.02.2026', 'Coffee', '2.00'],
      ['08.02.2026', 'Water', '1.00'],
    ];
    const content = ['Statement February 2026', ...rows.map((r) => r.join('   '))].join('\n');
    // With the dates, and without them: then order alone tells the rows apart.
    for (const withDates of [true, false]) {
      const items = rows.map(([date, description, amount]) => ({
        ...(withDates ? { date: date.split('.').reverse().join('-') } : {}),
        description,
        amount: Number(amount),
      }));
      const { citations } = cite(text(content), { items });
      rows.forEach((_, k) => {
        expect(lineOf(content, citations[`/items/${k}/amount`])?.[0], `row ${k}`).toBe(k + 2);
        expect(lineOf(content, citations[`/items/${k}/description`])?.[0]).toBe(k + 2);
      });
    }
  });

  it('lets a value written once (a row’s reference) decide between rows that read alike', () => {
    const content = [
      'R-0001  Coffee  2.00',
      'R-0002  Coffee  2.00',
      'R-0003  Coffee  2.00',
      'R-0004  Coffee  2.00',
    ].join('\n');
    // The model skipped R-0002: R-0003's values belong on the third row, not the second.
    const items = ['R-0001', 'R-0003', 'R-0004'].map((ref) => ({
      description: 'Coffee',
      amount: 2,
      ref,
    }));
    const { citations } = cite(text(content), { items });
    expect([0, 1, 2].map((k) => lineOf(content, citations[`/items/${k}/amount`])?.[0])).toEqual([
      1, 3, 4,
    ]);
  });

  it('finds an item far past the previous one when the model skipped many rows', () => {
    const ref = (k: number) => `R-${String(k).padStart(4, '0')}`;
    const content = Array.from({ length: 300 }, (_, k) => `${ref(k + 1)}  Coffee  2.00`).join('\n');
    const items = [1, 250, 251].map((k) => ({ ref: ref(k), description: 'Coffee', amount: 2 }));
    const { citations } = cite(text(content), { items });
    for (const [k, row] of [1, 250, 251].entries()) {
      for (const field of ['ref', 'description', 'amount'])
        expect(lineOf(content, citations[`/items/${k}/${field}`])?.[0], `${k}/${field}`).toBe(row);
    }
  });

  it('puts item k+1 no earlier than item k, and never two items on one row', () => {
    const content = ['2.00', '2.00', '2.00'].join('\n');
    const { citations } = cite(text(content), { a: [{ v: 2 }, { v: 2 }, { v: 2 }], b: [2, 2, 2] });
    expect([0, 1, 2].map((k) => lineOf(content, citations[`/a/${k}/v`])?.[0])).toEqual([1, 2, 3]);
    expect([0, 1, 2].map((k) => lineOf(content, citations[`/b/${k}`])?.[0])).toEqual([1, 2, 3]);
  });

  it('still grounds items the model listed in another order than the source', () => {
    const content = 'Apples 1.00\nPears 2.00\nPlums 3.00';
    const items = [
      { name: 'Plums', price: 3 },
      { name: 'Apples', price: 1 },
      { name: 'Pears', price: 2 },
    ];
    const { citations, ungrounded } = cite(text(content), { items });
    expect(ungrounded).toEqual([]);
    expect(items.map((_, k) => lineOf(content, citations[`/items/${k}/price`])?.[0])).toEqual([
      3, 1, 2,
    ]);
  });

  it('does not let a value every item shares (a currency in a heading) pull items to it', () => {
    const content = 'All amounts in EUR\nCoffee 2.00\nTea 2.00\nCoffee 2.00';
    const items = ['Coffee', 'Tea', 'Coffee'].map((name) => ({
      name,
      amount: 2,
      currency: 'EUR',
    }));
    const { citations } = cite(text(content), { items });
    expect([0, 1, 2].map((k) => lineOf(content, citations[`/items/${k}/amount`])?.[0])).toEqual([
      2, 3, 4,
    ]);
    expect(lineOf(content, citations['/items/2/currency'])).toEqual([1, 'EUR']);
  });

  it('cites an item written as a block of lines near the block', () => {
    const content = [
      'Name: Ada Lovelace',
      'City: London',
      'Phone: 100',
      '',
      'Name: Grace Hopper',
      'City: London',
      'Phone: 100',
    ].join('\n');
    const people = ['Ada Lovelace', 'Grace Hopper'].map((name) => ({
      name,
      city: 'London',
      phone: '100',
    }));
    const { citations } = cite(text(content), { people });
    expect(lineOf(content, citations['/people/1/city'])?.[0]).toBe(6);
    expect(lineOf(content, citations['/people/1/phone'])?.[0]).toBe(7);
  });

  it('places lists inside an item from where the item was found', () => {
    const content = ['Order A-1', '  Coffee 2.00', 'Order A-2', '  Coffee 2.00', '  Tea 2.00'].join(
      '\n',
    );
    const orders = [
      { id: 'A-1', lines: [{ name: 'Coffee', amount: 2 }] },
      {
        id: 'A-2',
        lines: [
          { name: 'Coffee', amount: 2 },
          { name: 'Tea', amount: 2 },
        ],
      },
    ];
    const { citations } = cite(text(content), { orders });
    expect(lineOf(content, citations['/orders/1/lines/0/amount'])?.[0]).toBe(4);
    expect(lineOf(content, citations['/orders/1/lines/1/amount'])?.[0]).toBe(5);
  });

  it('grounds a value only its quote supports on the item’s row', () => {
    const content = 'Coffee 2.00 paid\nCoffee 2.00 paid\nCoffee 2.00 open';
    const items = [0, 1, 2].map(() => ({ name: 'Coffee', settled: true }));
    const quotes = new Map([0, 1, 2].map((k) => [`/items/${k}/settled`, 'Coffee 2.00 paid']));
    const { citations } = cite(text(content), { items }, quotes);
    expect(lineOf(content, citations['/items/1/settled'])).toEqual([2, 'Coffee 2.00 paid']);
  });
});

describe('rows of a page', () => {
  const cell = (textOf: string, x: number, y: number, width = 0.1): GroundingLine => ({
    text: textOf,
    box: [x, y, x + width, y + 0.012],
  });
  const rows: [string, string, string][] = [
    ['Cable ties', '2', '2.00'],
    ['Screws', '2', '2.00'],
    ['Cable ties', '2', '2.00'],
  ];
  // A text layer's cells, each a line of its own, rows side by side; the date above holds a 2.
  const source: GroundingSource = {
    kind: 'pages',
    pages: [
      {
        page: 1,
        lines: [
          cell('Date 2026-02-08', 0.1, 0.05, 0.3),
          ...rows.flatMap(([a, b, c], k) => [
            cell(a, 0.1, 0.2 + k * 0.02),
            cell(b, 0.4, 0.2 + k * 0.02 + 0.001),
            cell(c, 0.6, 0.2 + k * 0.02),
          ]),
        ],
      },
      { page: 2, lines: [cell('Cable ties', 0.1, 0.2), cell('2', 0.4, 0.2)] },
    ],
  };

  it('boxes each item’s values in the cells of its own row', () => {
    const items = [...rows, ['Cable ties', '2']].map(([name, qty, amount]) => ({
      name,
      qty: Number(qty),
      ...(amount ? { amount: Number(amount) } : {}),
    }));
    const { citations } = cite(source, { items });
    rows.forEach((_, k) => {
      const y = 0.2 + k * 0.02;
      for (const [field, x] of [
        ['name', 0.1],
        ['qty', 0.4],
        ['amount', 0.6],
      ] as const) {
        const c = citations[`/items/${k}/${field}`]!;
        expect(c.page, `${k}/${field}`).toBe(1);
        expect(c.boxes[0]![0], `${k}/${field}`).toBeCloseTo(x);
        expect(c.boxes[0]![1], `${k}/${field}`).toBeCloseTo(y, 2);
      }
    });
    expect(citations['/items/3/qty']).toMatchObject({ page: 2 });
  });
});

describe('any answer', () => {
  it('cites values nested past any depth, in lists and objects alike', () => {
    let output: unknown = { amount: 2 };
    for (let k = 0; k < 5_000; k++) output = k % 2 ? { next: output } : [output];
    const { citations } = cite(text('Total 2.00'), { items: [output] });
    const cited = Object.values(citations);
    expect(cited).toHaveLength(1);
    expect(cited[0]).toMatchObject({ grounded: true, quote: '2.00' });
  });
});

describe('no value', () => {
  it('is what an empty string is: neither cited nor flagged, in an item or alone', () => {
    const { citations, ungrounded } = cite(text('Coffee 2.00\nTea 3.00'), {
      memo: '',
      blank: '   ',
      items: [
        { name: 'Coffee', note: '' },
        { name: 'Tea', note: '' },
      ],
      tags: ['', 'Tea'],
    });
    expect(Object.keys(citations)).toEqual(['/items/0/name', '/items/1/name', '/tags/1']);
    expect(ungrounded).toEqual([]);
  });
});
