/**
 * Which documents go into which bundle of `datasets/bundles`, and where each one's pages land.
 * Pure: the writer (bundles.ts) reads the source files and assembles the PDFs; this decides the
 * order from a seed, so the same data sets and seed make the same bundles.
 */
import { seeded } from '@xt/testkit/datasets';

export type BundleClass = 'invoice' | 'statement';

/** One document of the other data sets, as a bundle can hold it. */
export interface SourceDocument {
  /** its path under the data sets' root, e.g. `invoices-text/cases/INV-2026-1001.pdf` */
  file: string;
  class: BundleClass;
  pages: number;
  /** a JPEG scan, put into the bundle as an image-only page */
  scanned: boolean;
}

export interface PlannedBundle {
  name: string;
  parts: SourceDocument[];
}

/** What `expected/<bundle>.json` holds (docs/split.md): each document's class and pages. */
export interface ExpectedSplit {
  documents: { class: string; pages: { from: number; to: number } }[];
}

export const BUNDLE_SEED = 2026;
const ORDINARY_BUNDLES = 20;
/** Statements this long go into the long bundle only: one of them is half an ordinary bundle. */
const LONG_STATEMENT_PAGES = 40;

/**
 * Twenty bundles of 2 to 6 documents in random order, then one long one. Scans weigh about
 * 85 kB a page where a text page weighs 2–4 kB, so they are rationed: every third bundle holds
 * one (the ninth two, one after the other, where only OCR can tell where the second starts).
 */
export function planBundles(
  sources: readonly SourceDocument[],
  seed = BUNDLE_SEED,
): PlannedBundle[] {
  const random = seeded(seed);
  const texts = sources.filter((d) => d.class === 'invoice' && !d.scanned);
  const scans = sources.filter((d) => d.scanned);
  const statements = sources.filter(
    (d) => d.class === 'statement' && d.pages < LONG_STATEMENT_PAGES,
  );
  const long = sources.filter((d) => d.class === 'statement' && d.pages >= LONG_STATEMENT_PAGES);
  if (!texts.length || !scans.length || !statements.length || !long.length) {
    throw new Error(
      'bundles need text invoices, scanned invoices, short statements and a long statement',
    );
  }
  /** A document of `pool` not yet in `parts` (any when all are): no bundle holds one twice. */
  const pickFrom = (pool: readonly SourceDocument[], parts: readonly SourceDocument[]) => {
    const unused = pool.filter((d) => !parts.includes(d));
    return random.pick(unused.length ? unused : pool);
  };
  const bundles: PlannedBundle[] = [];
  for (let n = 1; n <= ORDINARY_BUNDLES; n++) {
    const count = random.int(2, 6);
    const scanCount = n % 3 !== 0 ? 0 : n === 9 ? 2 : 1;
    const parts: SourceDocument[] = [];
    while (parts.length < count - scanCount) {
      parts.push(pickFrom(random.next() < 0.6 ? texts : statements, parts));
    }
    const at = random.int(0, parts.length);
    const scanned: SourceDocument[] = [];
    while (scanned.length < scanCount) scanned.push(pickFrom(scans, scanned));
    parts.splice(at, 0, ...scanned);
    bundles.push({ name: bundleName(n), parts });
  }
  // The long bundle: the longest statement twice, apart, around shorter documents of each kind.
  const longest = long.reduce((a, b) => (b.pages > a.pages ? b : a));
  const byLength = [...statements].sort((a, b) => b.pages - a.pages);
  bundles.push({
    name: bundleName(ORDINARY_BUNDLES + 1),
    parts: [
      longest,
      random.pick(texts),
      byLength[0]!,
      longest,
      random.pick(scans),
      byLength[1] ?? byLength[0]!,
    ],
  });
  return bundles;
}

const bundleName = (n: number) => `bundle-${String(n).padStart(2, '0')}`;

/** The bundle's documents in page order, numbered from 1 as the service numbers them. */
export function expectedSplit(bundle: PlannedBundle): ExpectedSplit {
  let next = 1;
  return {
    documents: bundle.parts.map((part) => {
      const pages = { from: next, to: next + part.pages - 1 };
      next += part.pages;
      return { class: part.class, pages };
    }),
  };
}

export const bundlePages = (bundle: PlannedBundle): number =>
  bundle.parts.reduce((sum, part) => sum + part.pages, 0);

/**
 * What the data set promises (its README): the cases a split can get wrong are all there.
 * Returns each promise the plan breaks; the writer refuses to write a plan that breaks one.
 */
export function planProblems(bundles: readonly PlannedBundle[]): string[] {
  const problems: string[] = [];
  const some = (what: string, test: (b: PlannedBundle) => boolean, atLeast = 1) => {
    if (bundles.filter(test).length < atLeast) problems.push(`fewer than ${atLeast} ${what}`);
  };
  const adjacent = (b: PlannedBundle, test: (x: SourceDocument, y: SourceDocument) => boolean) =>
    b.parts.some((part, i) => i > 0 && test(b.parts[i - 1]!, part));
  if (bundles.length < 20) problems.push(`${bundles.length} bundles, not 20 or more`);
  for (const b of bundles) {
    if (b.parts.length < 2 || b.parts.length > 6)
      problems.push(`${b.name} holds ${b.parts.length} documents, not 2 to 6`);
  }
  some('bundles with a scanned page', (b) => b.parts.some((p) => p.scanned), 5);
  some('bundles opening with a statement', (b) => b.parts[0]?.class === 'statement');
  some('bundles opening with an invoice', (b) => b.parts[0]?.class === 'invoice');
  some('bundles with two invoices in a row', (b) =>
    adjacent(b, (x, y) => x.class === 'invoice' && y.class === 'invoice'),
  );
  some('bundles with two statements in a row', (b) =>
    adjacent(b, (x, y) => x.class === 'statement' && y.class === 'statement'),
  );
  some('bundles with two scans in a row', (b) => adjacent(b, (x, y) => x.scanned && y.scanned));
  some('bundles of 100 pages or more', (b) => bundlePages(b) >= 100);
  return problems;
}
