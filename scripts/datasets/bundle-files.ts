/**
 * Writes `datasets/bundles` from the other data sets' files: each bundle a PDF assembled with
 * pdf-lib (text pages copied as they are, each scan a JPEG page of its own, the JPEG bytes
 * embedded unchanged), its true split in `expected/`, the classes in `split.json` and a README
 * listing what each bundle holds. Run after those data sets exist; the same files and seed make
 * the same bytes.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { format, resolveConfig } from 'prettier';
import {
  BUNDLE_SEED,
  bundlePages,
  expectedSplit,
  planBundles,
  planProblems,
  type PlannedBundle,
  type SourceDocument,
} from './bundle-plan.ts';

/** The invoices-scanned set draws its pages at 150 dpi: a scan goes in at its paper size. */
const SCAN_DPI = 150;
const FIXED_DATE = new Date('2026-01-01T00:00:00Z');

/** The data sets a bundle draws from, and the class their documents are. */
const SOURCE_SETS = [
  { set: 'invoices-text', class: 'invoice', ext: '.pdf' },
  { set: 'invoices-scanned', class: 'invoice', ext: '.jpg' },
  { set: 'statements', class: 'statement', ext: '.pdf' },
] as const;

export async function readSources(root: string): Promise<SourceDocument[]> {
  const docs: SourceDocument[] = [];
  for (const source of SOURCE_SETS) {
    const dir = path.join(root, source.set, 'cases');
    for (const name of (await readdir(dir)).sort()) {
      if (path.extname(name) !== source.ext) continue;
      const file = `${source.set}/cases/${name}`;
      const scanned = source.ext === '.jpg';
      const pages = scanned
        ? 1
        : (await PDFDocument.load(await readFile(path.join(root, file)))).getPageCount();
      docs.push({ file, class: source.class, pages, scanned });
    }
  }
  return docs;
}

async function bundlePdf(root: string, bundle: PlannedBundle): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  doc.setProducer('scripts/datasets/bundles.ts (pdf-lib)');
  for (const part of bundle.parts) {
    const bytes = await readFile(path.join(root, part.file));
    if (part.scanned) {
      const image = await doc.embedJpg(bytes);
      const size = { width: (image.width * 72) / SCAN_DPI, height: (image.height * 72) / SCAN_DPI };
      doc.addPage([size.width, size.height]).drawImage(image, { x: 0, y: 0, ...size });
      continue;
    }
    const source = await PDFDocument.load(bytes);
    for (const page of await doc.copyPages(source, source.getPageIndices())) doc.addPage(page);
  }
  return doc.save({ useObjectStreams: true });
}

/**
 * The classes as `split.classes` takes them, each with the schema its documents are extracted
 * with (the source data set's), which a run creates and names by `schema_id`. The stand-in
 * model classifies a page by its title: a description's first word must not appear in the
 * other class's titles ("INVOICE", "Statement page 2 of 3").
 */
async function splitSettings(root: string): Promise<unknown> {
  const schema = async (set: string) =>
    JSON.parse(await readFile(path.join(root, set, 'schema.json'), 'utf8')) as unknown;
  return {
    classes: [
      {
        name: 'invoice',
        description:
          'Bill from a supplier asking for payment: invoice number and date, seller, buyer, line items and a total due. One page, typed or scanned.',
        schema: await schema('invoices-text'),
      },
      {
        name: 'statement',
        description:
          'Bank account statement: account number, opening and closing balance and a table of transactions, over one or more pages numbered "Statement page N of M".',
        schema: await schema('statements'),
      },
    ],
    other: true,
  };
}

function readme(bundles: readonly PlannedBundle[], seed: number): string {
  const rows = bundles.map((b) => {
    const parts = b.parts.map((p) => {
      const name = path.basename(p.file, path.extname(p.file));
      const what = p.scanned ? 'scan' : p.class === 'statement' ? `${p.pages} p.` : 'text';
      return `${name} (${what})`;
    });
    return `| \`${b.name}\` | ${b.parts.length} | ${bundlePages(b)} | ${parts.join(', ')} |`;
  });
  return `# Bundles: documents to split

<!-- Written by scripts/datasets/bundles.ts; edit the script, not this file. -->

Mail-room PDFs each holding several documents one after another, for splitting and classifying
a bundle (\`split\` on \`POST /v1/extractions\`, docs/split.md). Every document is a file of
another data set here: the \`invoices-text\` PDFs, the \`invoices-scanned\` JPEGs (each put in as
an image-only page at its 150 dpi paper size, the JPEG bytes unchanged) and the \`statements\`
PDFs of 1, 3, 12 and 48 pages.

\`\`\`
bundles/
  split.json            the classes, as split.classes takes them, each with the schema of its
                        documents ("schema": { name, structure }, to create and name by schema_id)
  cases/<bundle>.pdf    the bundle
  expected/<bundle>.json  { "documents": [ { "class": "invoice", "pages": { "from": 1, "to": 1 } }, … ] }
\`\`\`

How it was made: \`npx tsx scripts/datasets/bundles.ts\` (\`--from <data sets root>\`,
\`--out <dir>\`, \`--seed <n>\`; \`npm run datasets\` runs it after writing the other sets), which
reads the three data sets' files, plans the bundles from seed ${seed} and assembles each with
pdf-lib. The same files and seed make the same bytes. Twenty bundles hold 2 to 6 documents in
random order (an invoice 60% of the time, else a statement of up to 12 pages, none twice in a
bundle); every third holds one scanned invoice at a random place, \`bundle-09\` two in a row
(only OCR tells where the second starts). The last is long: the 48-page statement twice with
four documents around them. The script refuses a plan that lacks any of: a scanned page in five
bundles, bundles opening with each class, two invoices in a row, two statements in a row, two
scans in a row, a bundle of 100 pages or more.

Scored by \`npm run bench -- --sections 16\` (scripts/bench/sections/split.ts, rows §16 of
docs/benchmarks.md; the scoring in scripts/bench/lib/split-score.ts): a boundary is a page where
a document starts (page 1, where every split starts, not counted); precision and recall of the
boundaries the split gave, class accuracy as the share of true documents whose first page it put
in a document of their class, and the documents it gave exactly. \`xt eval\` does not read this
set: it scores one extraction's output field by field against a schema, and a bundle has no
schema of its own.

| Bundle | Documents | Pages | In page order |
| ------ | --------: | ----: | ------------- |
${rows.join('\n')}
`;
}

/** Replaces `out` with the bundles made from the data sets under `root`. */
export async function writeBundles(
  root: string,
  out = path.join(root, 'bundles'),
  seed = BUNDLE_SEED,
): Promise<PlannedBundle[]> {
  const bundles = planBundles(await readSources(root), seed);
  const problems = planProblems(bundles);
  if (problems.length) {
    throw new Error(`seed ${seed} plans bundles that break the README: ${problems.join('; ')}`);
  }
  await rm(out, { recursive: true, force: true });
  await mkdir(path.join(out, 'cases'), { recursive: true });
  await mkdir(path.join(out, 'expected'), { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(path.join(out, 'split.json'), json(await splitSettings(root)));
  for (const bundle of bundles) {
    await writeFile(path.join(out, 'cases', `${bundle.name}.pdf`), await bundlePdf(root, bundle));
    await writeFile(path.join(out, 'expected', `${bundle.name}.json`), json(expectedSplit(bundle)));
  }
  // Laid out as `prettier --check` wants it (aligned table), so that regenerating changes nothing.
  const readmeFile = path.join(out, 'README.md');
  const options = { ...(await resolveConfig(readmeFile)), filepath: readmeFile };
  await writeFile(readmeFile, await format(readme(bundles, seed), options));
  return bundles;
}
