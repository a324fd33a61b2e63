/**
 * `npm run datasets [-- --out <dir>] [--seed <n>] [--invoices <n>] [--rows 25,100,500,2000]
 *  [--docx-invoices <n>] [--price-rows 25,200,2000]`: writes the evaluation data sets
 * (docs/evaluation.md). The same options make the same bytes. The DOCX and XLSX files are
 * written by LibreOffice (/usr/bin/soffice), the emails by python3's MIME composer. Last, the
 * bundles to split are assembled from the PDF and scanned sets just written (bundle-files.ts).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SIZES, writeAllDatasets } from '@xt/testkit/datasets';
import { writeBundles } from './bundle-files.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'datasets' },
    seed: { type: 'string', default: String(DEFAULT_SIZES.seed) },
    invoices: { type: 'string', default: String(DEFAULT_SIZES.invoices) },
    rows: { type: 'string', default: DEFAULT_SIZES.statementRows.join(',') },
    'docx-invoices': { type: 'string', default: String(DEFAULT_SIZES.docxInvoices) },
    'price-rows': { type: 'string', default: DEFAULT_SIZES.priceListRows.join(',') },
  },
});

const numbers = (flag: string, text: string): number[] => {
  const list = text.split(',').map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 1)) {
    console.error(`--${flag} takes positive integers, got ${text}`);
    process.exit(2);
  }
  return list;
};

const root = path.resolve(values.out);
await writeAllDatasets(root, {
  seed: numbers('seed', values.seed)[0]!,
  invoices: numbers('invoices', values.invoices)[0]!,
  statementRows: numbers('rows', values.rows),
  docxInvoices: numbers('docx-invoices', values['docx-invoices'])[0]!,
  priceListRows: numbers('price-rows', values['price-rows']),
});
await writeBundles(root);
console.log(`Data sets written to ${root}`);
