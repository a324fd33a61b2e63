/**
 * `npx tsx scripts/datasets/bundles.ts [--from datasets] [--out <from>/bundles] [--seed <n>]`:
 * writes the `bundles` data set (documents to split) from the invoices-text, invoices-scanned
 * and statements sets under `--from`; see datasets/bundles/README.md.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundlePages, BUNDLE_SEED } from './bundle-plan.ts';
import { writeBundles } from './bundle-files.ts';

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: 'datasets' },
    out: { type: 'string' },
    seed: { type: 'string', default: String(BUNDLE_SEED) },
  },
});
const seed = Number(values.seed);
if (!Number.isInteger(seed)) {
  console.error(`--seed takes an integer, got ${values.seed}`);
  process.exit(2);
}
const root = path.resolve(values.from);
const out = path.resolve(values.out ?? path.join(root, 'bundles'));
const bundles = await writeBundles(root, out, seed);
const pages = bundles.reduce((sum, b) => sum + bundlePages(b), 0);
console.log(`${bundles.length} bundles (${pages} pages) written to ${out}`);
