import { workbookFiles, type FixtureCell, type FixtureSheet } from '../fixtures/workbook.ts';
import { withFixedEntryTimes } from '../fixtures/zip.ts';
import { isoDay, money, seeded } from './random.ts';

/*
 * A supplier's price list as purchasing sends it: an XLSX workbook (written by LibreOffice Calc
 * from a sheet this module describes) with a title above the table, a header row, prices in a
 * thousands format, a price with VAT computed by a formula, and dates.
 */

export interface PriceList {
  items: Array<{
    sku: string;
    description: string;
    pack_size: number;
    unit_price: number;
    price_incl_vat: number;
    valid_from: string;
  }>;
}

export const PRICE_LIST_SCHEMA = {
  name: 'Price list',
  structure: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            sku: { type: 'string' },
            description: { type: 'string' },
            pack_size: { type: 'integer' },
            unit_price: { type: 'number' },
            price_incl_vat: { type: 'number' },
            valid_from: { type: 'string', describe: 'ISO date, YYYY-MM-DD' },
          },
        },
      },
    },
  },
};

const PRODUCTS = [
  'Steel bracket',
  'Hex bolt',
  'Wood screw',
  'Cable tie',
  'Hinge',
  'Wall plug',
  'Washer',
  'Shelf support',
  'Door handle',
  'Pipe clamp',
];
const FINISHES = ['zinc plated', 'stainless', 'black', 'brass', 'galvanised'];
const SIZES = ['12 mm', '20 mm', '40 mm', '60 mm', '100 mm'];
const PACKS = [1, 5, 10, 25, 50, 100];

export function makePriceList(rows: number, seed: number): PriceList {
  const random = seeded(seed);
  const start = new Date('2026-01-01T00:00:00Z');
  return {
    items: Array.from({ length: rows }, (_, i) => {
      // A multiple of 5 cents, so that the price with 20% VAT is a whole number of cents.
      const cents = random.int(10, 100_000) * 5;
      return {
        sku: `NL-${String(10_000 + i)}`,
        description: `${random.pick(PRODUCTS)} ${random.pick(SIZES)}, ${random.pick(FINISHES)}`,
        pack_size: random.pick(PACKS),
        unit_price: money(cents),
        price_incl_vat: money((cents * 6) / 5),
        valid_from: isoDay(start, random.int(0, 180)),
      };
    }),
  };
}

/** The price list as the sheet a person would lay out: title, header row, one row per item. */
function priceSheet(list: PriceList): FixtureSheet[] {
  const rows: FixtureCell[][] = [
    [{ value: 'Nordlicht GmbH: price list 2026 (EUR)', span: 6 }],
    ['SKU', 'Description', 'Pack size', 'Unit price', 'Price incl. VAT', 'Valid from'],
    ...list.items.map((item, i): FixtureCell[] => [
      item.sku,
      item.description,
      item.pack_size,
      { value: item.unit_price, style: 'amount' },
      {
        value: item.price_incl_vat,
        style: 'amount',
        formula: `of:=ROUND([.D${i + 3}]*1.2;2)`,
      },
      { value: item.valid_from, date: true, style: 'date' },
    ]),
  ];
  return [
    { name: 'Prices', rows },
    { name: 'Terms', rows: [['Prices exclude VAT unless stated. Valid until further notice.']] },
  ];
}

export async function priceListXlsx(list: PriceList): Promise<Buffer> {
  const { xlsx } = await workbookFiles(priceSheet(list), ['xlsx']);
  return withFixedEntryTimes(xlsx);
}
