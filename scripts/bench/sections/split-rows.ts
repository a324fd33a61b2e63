/** Section 16 (splitting the bundles data set, a review's way to a test case) as table rows. */
import { runChild } from '../lib/child.ts';
import type { Results } from '../lib/report.ts';
import { addCounts, NO_COUNTS, splitFigures } from '../lib/split-score.ts';
import type { BundleRun, SplitResult } from './split.ts';

/** `--quick`: a bundle of each kind (text only, scans, two scans in a row) and the long one. */
const QUICK_BUNDLES = 'bundle-01,bundle-03,bundle-09,bundle-21';

export async function measureSplit(
  quick: boolean,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  log('§16 splitting bundles');
  const { result: r } = await runChild<SplitResult>(
    'scripts/bench/sections/split.ts',
    quick ? ['--bundles', QUICK_BUNDLES] : [],
    log,
  );
  const counts = r.splitOnly.reduce((sum, run) => addCounts(sum, run.counts), NO_COUNTS);
  const f = splitFigures(counts);
  const set = `${r.bundles} bundles, ${r.pages} pages`;
  const failed = r.splitOnly.filter((run) => run.status !== 'completed').length;
  const notes = failed ? `, ${failed} not completed` : '';
  results.add({
    section: '16',
    measure: `Split boundary precision, ${set}: true starts among those given (${counts.foundBoundaries}/${counts.predictedBoundaries}${notes})`,
    unit: '%',
    decimals: 1,
    service: [f.precision * 100],
  });
  results.add({
    section: '16',
    measure: `Split boundary recall, ${set}: starts found among the true (${counts.foundBoundaries}/${counts.trueBoundaries}; page 1 not counted)`,
    unit: '%',
    decimals: 1,
    service: [f.recall * 100],
  });
  results.add({
    section: '16',
    measure: `Split class accuracy per document, ${set} (${counts.classRight}/${counts.documents}; ${counts.exact} with exactly their pages and class)`,
    unit: '%',
    decimals: 1,
    service: [f.classAccuracy * 100],
  });
  const model = r.modelMs ? `model ${r.modelMs} ms a call` : 'model answering at once';
  const timed = (runs: BundleRun[]) =>
    runs.filter((run): run is BundleRun & { seconds: number } => run.status === 'completed');
  const rate = (runs: BundleRun[]) =>
    timed(runs).reduce((n, run) => n + run.pages, 0) /
    timed(runs).reduce((s, run) => s + run.seconds, 0);
  const children = r.withSchemas.reduce((n, run) => n + run.children, 0);
  const childrenDone = r.withSchemas.reduce((n, run) => n + run.childrenCompleted, 0);
  const long = timed(r.splitOnly).reduce<(BundleRun & { seconds: number }) | undefined>(
    (a, b) => (!a || b.pages > a.pages ? b : a),
    undefined,
  );
  if (!long) {
    results.note('§16: no bundle was split, so no pages per second (see the log for why).');
  } else {
    const of = (runs: BundleRun[]) => {
      const done = timed(runs);
      const pages = done.reduce((n, run) => n + run.pages, 0);
      return done.length === runs.length ? set : `${done.length} of the bundles, ${pages} pages`;
    };
    results.add({
      section: '16',
      measure: `Splitting, ${of(r.splitOnly)} one at a time, ${model}: pages per second from the parent's create to its documents known (classes without schemas, so no children)`,
      unit: 'pages/s',
      decimals: 1,
      service: [rate(r.splitOnly)],
    });
    for (const scanned of [false, true]) {
      const some = r.splitOnly.filter((run) => run.scanned === scanned);
      if (!timed(some).length) continue;
      results.add({
        section: '16',
        measure: `Splitting, the ${timed(some).length} bundles ${scanned ? 'with scanned pages (each scan read by OCR)' : 'of text pages only'}, ${model}`,
        unit: 'pages/s',
        decimals: 1,
        service: [rate(some)],
      });
    }
    results.add({
      section: '16',
      measure: `Splitting the ${long.pages}-page bundle alone (${long.seconds.toFixed(1)} s), ${model}`,
      unit: 'pages/s',
      decimals: 1,
      service: [long.pages / long.seconds],
    });
    results.add({
      section: '16',
      measure: `Split and extract, ${of(r.withSchemas)} one at a time: pages per second from the parent's create to its completion (every class with its schema, ${childrenDone}/${children} children completed)`,
      unit: 'pages/s',
      decimals: 1,
      service: [rate(r.withSchemas)],
      baseline: [rate(r.splitOnly)],
      baselineName: '(split only)',
    });
  }
  const review = r.review;
  if ('error' in review) {
    results.note(`§16: the review to test case was not measured: ${review.error}`);
    return;
  }
  const exports = review.exportMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(' + ');
  results.add({
    section: '16',
    measure: `Review correction to its test case, ${review.of}: from \`POST /v1/extractions/{id}/review\` (${Math.round(review.reviewMs)} ms) until \`xt reviews export\` (${exports}, a new process each) has written its case`,
    unit: 's',
    decimals: 2,
    service: [review.totalMs / 1000],
  });
  if (review.skipped) results.note(`§16: the export said: ${review.skipped}`);
  const pages = (n: number | null) => (n === null ? 'not a PDF' : `${n} page${n === 1 ? '' : 's'}`);
  results.note(
    `§16: the exported case ${review.correctionInCase ? 'holds' : '**does not hold**'} the correction in its expected output; its source file has ${pages(review.casePages)}${review.documentPages === null ? '' : `, the reviewed document ${pages(review.documentPages)} of its bundle`}.`,
  );
}
