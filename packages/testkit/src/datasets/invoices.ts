import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import sharp from 'sharp';
import { fixed2, isoDay, money, seeded, type Random } from './random.ts';

export interface Invoice {
  invoice_number: string;
  invoice_date: string;
  vendor_name: string;
  customer_name: string;
  currency: string;
  lines: Array<{ description: string; quantity: number; unit_price: number; amount: number }>;
  total: number;
}

export const INVOICE_SCHEMA = {
  name: 'Invoice',
  structure: {
    type: 'object',
    properties: {
      invoice_number: { type: 'string', required: true },
      invoice_date: { type: 'string', describe: 'ISO date, YYYY-MM-DD' },
      vendor_name: { type: 'string' },
      customer_name: { type: 'string' },
      currency: { type: 'string', describe: 'ISO 4217 code' },
      lines: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            description: { type: 'string' },
            quantity: { type: 'number' },
            unit_price: { type: 'number' },
            amount: { type: 'number' },
          },
        },
      },
      total: { type: 'number' },
    },
  },
};

const VENDORS = [
  'Acme Supplies Ltd',
  'Nordlicht GmbH',
  'Blue Harbor Trading',
  'Oakridge Tools Inc',
  'Helios Office SA',
];
const CUSTOMERS = [
  'Riverside Bakery',
  'Kestrel Logistics',
  'Marigold Studio',
  'Pinecrest Clinic',
  'Orbit Cafe',
];
const ITEMS = [
  'Steel bracket',
  'Copy paper A4',
  'Desk lamp',
  'USB cable',
  'Safety gloves',
  'Printer toner',
  'Cable ties',
  'Office chair',
  'Whiteboard marker',
  'Storage box',
];
const CURRENCIES = ['EUR', 'USD', 'GBP'];

export function makeInvoices(count: number, seed: number): Invoice[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => makeInvoice(random, i));
}

function makeInvoice(random: Random, i: number): Invoice {
  const lines = Array.from({ length: random.int(2, 6) }, () => {
    const quantity = random.int(1, 12);
    const unitCents = random.int(150, 25_000);
    return {
      description: random.pick(ITEMS),
      quantity,
      unit_price: money(unitCents),
      amount: money(quantity * unitCents),
    };
  });
  return {
    invoice_number: `INV-2026-${String(1001 + i)}`,
    invoice_date: isoDay(new Date('2026-01-05T00:00:00Z'), random.int(0, 300)),
    vendor_name: random.pick(VENDORS),
    customer_name: random.pick(CUSTOMERS),
    currency: random.pick(CURRENCIES),
    lines,
    total: money(lines.reduce((sum, l) => sum + Math.round(l.amount * 100), 0)),
  };
}

/** The invoice as lines of labelled values and table rows, as both renderings lay them out. */
export function invoiceLayout(invoice: Invoice): {
  header: string[];
  columns: string[];
  rows: string[][];
  footer: string[];
} {
  return {
    header: [
      `Invoice number: ${invoice.invoice_number}`,
      `Invoice date: ${invoice.invoice_date}`,
      `Vendor name: ${invoice.vendor_name}`,
      `Customer name: ${invoice.customer_name}`,
      `Currency: ${invoice.currency}`,
    ],
    columns: ['Description', 'Quantity', 'Unit price', 'Amount'],
    rows: invoice.lines.map((l) => [
      l.description,
      String(l.quantity),
      fixed2(l.unit_price),
      fixed2(l.amount),
    ]),
    footer: [`Total: ${fixed2(invoice.total)}`],
  };
}

/** Column x positions in points: wide enough apart that the text layer shows cell gaps. */
const COLUMN_X = [72, 260, 350, 450];

/** A one-page A4 PDF with a text layer (Helvetica). */
export async function invoicePdf(invoice: Invoice): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  doc.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595, 842]);
  const { header, columns, rows, footer } = invoiceLayout(invoice);
  let y = 780;
  page.drawText('INVOICE', { x: 72, y, size: 20, font: bold });
  y -= 40;
  for (const line of header) {
    page.drawText(line, { x: 72, y, size: 11, font });
    y -= 18;
  }
  y -= 16;
  drawRow(page, columns, y, bold);
  y -= 20;
  for (const row of rows) {
    drawRow(page, row, y, font);
    y -= 18;
  }
  y -= 16;
  for (const line of footer) page.drawText(line, { x: 350, y, size: 12, font: bold });
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}

function drawRow(page: PDFPage, cells: string[], y: number, font: PDFFont): void {
  cells.forEach((cell, i) => page.drawText(cell, { x: COLUMN_X[i]!, y, size: 11, font }));
}

/**
 * The invoice as a scanned page: drawn at 150 dpi, turned by up to 1.5 degrees, with grey
 * speckle noise, saved as a greyscale JPEG the way office scanners send them.
 */
export async function invoiceScan(invoice: Invoice, seed: number): Promise<Buffer> {
  const random = seeded(seed);
  const width = 1240;
  const height = 1754;
  const scale = width / 595;
  const { header, columns, rows, footer } = invoiceLayout(invoice);
  const texts: string[] = [];
  const text = (x: number, y: number, value: string, size: number, weight = 'normal') =>
    texts.push(
      `<text x="${(x * scale).toFixed(1)}" y="${((842 - y) * scale).toFixed(1)}" font-family="DejaVu Sans" font-size="${(size * scale).toFixed(1)}" font-weight="${weight}">${escapeXml(value)}</text>`,
    );
  let y = 780;
  text(72, y, 'INVOICE', 20, 'bold');
  y -= 40;
  for (const line of header) {
    text(72, y, line, 11);
    y -= 18;
  }
  y -= 16;
  columns.forEach((c, i) => text(COLUMN_X[i]!, y, c, 11, 'bold'));
  y -= 20;
  for (const row of rows) {
    row.forEach((c, i) => text(COLUMN_X[i]!, y, c, 11));
    y -= 18;
  }
  y -= 16;
  for (const line of footer) text(350, y, line, 12, 'bold');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${texts.join('')}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += info.channels) {
    const r = random.next();
    if (r < 0.004) data[i] = Math.max(0, data[i]! - 60 - Math.floor(random.next() * 60));
    else if (r > 0.997) data[i] = Math.min(255, data[i]! + 120);
  }
  const angle = (random.next() * 2 - 1) * 1.5;
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .jpeg({ quality: 50 })
    .toBuffer();
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
