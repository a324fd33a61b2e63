import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { invoicePdf, invoiceScan, INVOICE_SCHEMA, makeInvoices } from './invoices.ts';
import { makeStatement, statementPdf, STATEMENT_SCHEMA } from './statements.ts';
import { WEBPAGE_CASES, WEBPAGE_SCHEMA } from './webpages.ts';
import { invoiceDocxFiles, invoiceEmail } from './office-invoices.ts';
import { makePriceList, priceListXlsx, PRICE_LIST_SCHEMA } from './price-lists.ts';

export { makeInvoices, invoicePdf, invoiceScan, INVOICE_SCHEMA } from './invoices.ts';
export { seeded } from './random.ts';

interface Case {
  name: string;
  ext: string;
  source: Buffer | string;
  expected: unknown;
}

/** Writes one data set folder as `xt eval` reads it, replacing what was there. */
export async function writeDataset(dir: string, schema: unknown, cases: Case[]): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'cases'), { recursive: true });
  await mkdir(path.join(dir, 'expected'), { recursive: true });
  await writeFile(path.join(dir, 'schema.json'), `${JSON.stringify(schema, null, 2)}\n`);
  for (const c of cases) {
    await writeFile(path.join(dir, 'cases', `${c.name}.${c.ext}`), c.source);
    await writeFile(
      path.join(dir, 'expected', `${c.name}.json`),
      `${JSON.stringify(c.expected, null, 2)}\n`,
    );
  }
}

export interface DatasetSizes {
  seed: number;
  invoices: number;
  statementRows: number[];
  /** Invoices written as DOCX: the first `invoices` are those of the PDF sets. */
  docxInvoices: number;
  priceListRows: number[];
}

export const DEFAULT_SIZES: DatasetSizes = {
  seed: 2026,
  invoices: 8,
  statementRows: [25, 100, 500, 2000],
  docxInvoices: 12,
  priceListRows: [25, 200, 2000],
};

export async function writeInvoicesText(dir: string, count: number, seed: number): Promise<void> {
  const invoices = makeInvoices(count, seed);
  const cases = await Promise.all(
    invoices.map(async (inv) => ({
      name: inv.invoice_number,
      ext: 'pdf',
      source: await invoicePdf(inv),
      expected: inv,
    })),
  );
  await writeDataset(dir, INVOICE_SCHEMA, cases);
}

/** The same invoices as {@link writeInvoicesText} with the same seed, as scans. */
export async function writeInvoicesScanned(
  dir: string,
  count: number,
  seed: number,
): Promise<void> {
  const invoices = makeInvoices(count, seed);
  const cases = [];
  for (const [i, inv] of invoices.entries()) {
    cases.push({
      name: inv.invoice_number,
      ext: 'jpg',
      source: await invoiceScan(inv, seed + i),
      expected: inv,
    });
  }
  await writeDataset(dir, INVOICE_SCHEMA, cases);
}

export async function writeStatements(dir: string, rows: number[], seed: number): Promise<void> {
  const cases = [];
  for (const n of rows) {
    const statement = makeStatement(n, seed + n);
    cases.push({
      name: `rows-${String(n).padStart(4, '0')}`,
      ext: 'pdf',
      source: await statementPdf(statement),
      expected: statement,
    });
  }
  await writeDataset(dir, STATEMENT_SCHEMA, cases);
}

/** Invoices typed in a word processor, saved as DOCX by LibreOffice. */
export async function writeInvoicesDocx(dir: string, count: number, seed: number): Promise<void> {
  const invoices = makeInvoices(count, seed);
  const files = await invoiceDocxFiles(invoices);
  const cases = invoices.map((inv) => ({
    name: inv.invoice_number,
    ext: 'docx',
    source: files.get(inv.invoice_number)!,
    expected: inv,
  }));
  await writeDataset(dir, INVOICE_SCHEMA, cases);
}

/**
 * The PDF invoices sent by email, the PDF attached; every fourth forwarded by a colleague, so
 * that its PDF is an attachment of an attached message.
 */
export async function writeInvoiceEmails(dir: string, count: number, seed: number): Promise<void> {
  const invoices = makeInvoices(count, seed);
  const cases = [];
  for (const [i, inv] of invoices.entries()) {
    cases.push({
      name: inv.invoice_number,
      ext: 'eml',
      source: await invoiceEmail(inv, { forwarded: i % 4 === 3, seed: seed + i }),
      expected: inv,
    });
  }
  await writeDataset(dir, INVOICE_SCHEMA, cases);
}

/** Price lists as XLSX workbooks of the given numbers of rows. */
export async function writePriceLists(dir: string, rows: number[], seed: number): Promise<void> {
  const cases = [];
  for (const n of rows) {
    const list = makePriceList(n, seed + n);
    cases.push({
      name: `rows-${String(n).padStart(4, '0')}`,
      ext: 'xlsx',
      source: await priceListXlsx(list),
      expected: list,
    });
  }
  await writeDataset(dir, PRICE_LIST_SCHEMA, cases);
}

export async function writeWebpages(dir: string): Promise<void> {
  await writeDataset(
    dir,
    WEBPAGE_SCHEMA,
    WEBPAGE_CASES.map((c) => ({
      name: c.name,
      ext: 'url',
      source: `${c.path}\n`,
      expected: c.expected,
    })),
  );
}

/** Every shipped data set under `root`. */
export async function writeAllDatasets(
  root: string,
  sizes: DatasetSizes = DEFAULT_SIZES,
): Promise<void> {
  await writeInvoicesText(path.join(root, 'invoices-text'), sizes.invoices, sizes.seed);
  await writeInvoicesScanned(path.join(root, 'invoices-scanned'), sizes.invoices, sizes.seed);
  await writeStatements(path.join(root, 'statements'), sizes.statementRows, sizes.seed);
  await writeWebpages(path.join(root, 'webpages'));
  await writeInvoicesDocx(path.join(root, 'invoices-docx'), sizes.docxInvoices, sizes.seed);
  await writeInvoiceEmails(path.join(root, 'invoices-email'), sizes.invoices, sizes.seed);
  await writePriceLists(path.join(root, 'price-lists'), sizes.priceListRows, sizes.seed);
}
