/** Section 14 (reuse, batch price, the reuse look-up) run as a child, turned into table rows. */
import { runChild } from '../lib/child.ts';
import type { Results } from '../lib/report.ts';
import type { ReuseResult } from './reuse.ts';

export async function measureReuse(
  quick: boolean,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  log('§14 reuse, batch price and the reuse look-up');
  const { result: r } = await runChild<ReuseResult>(
    'scripts/bench/sections/reuse.ts',
    quick ? ['--docs', '12', '--sizes', '10000', '--lookups', '500'] : [],
    log,
  );
  const { first, second, batch } = r;
  const docs = `${r.docs} documents`;
  results.addWithTarget(
    {
      section: '14',
      measure: `Same ${docs} again, same account: model tokens of the second run (${second.reused}/${r.docs} reused, ${second.modelRequests} model calls)`,
      unit: 'tokens',
      decimals: 0,
      service: [second.tokens],
      baseline: [first.tokens],
      baselineName: `(first run, ${first.modelRequests} model calls)`,
    },
    '~0 tokens on the second run',
    (s) => s === 0,
  );
  results.add({
    section: '14',
    measure: `Same ${docs} again, same account: wall time of the second run, 4 at a time`,
    unit: 's',
    decimals: 2,
    service: [second.seconds],
    baseline: [first.seconds],
    baselineName: '(first run)',
  });
  results.add({
    section: '14',
    measure: `Same ${docs} with priority batch (new account): records' estimatedCostUsd summed (${batch.batchLines} batch lines, ${batch.modelRequests} standard calls, ${batch.tokens.toLocaleString('en')} tokens of which ${batch.cachedInputTokens.toLocaleString('en')} cached input; ${r.docs - r.differ}/${r.docs} outputs as the standard run's)`,
    unit: 'USD',
    decimals: 4,
    service: [batch.costUsd],
    baseline: [first.costUsd],
    baselineName: `(standard, first run: ${first.tokens.toLocaleString('en')} tokens, ${first.cachedInputTokens.toLocaleString('en')} cached input)`,
  });
  results.add({
    section: '14',
    measure: `Same ${docs} with priority batch: its records' cost against the same usage at standard prices`,
    unit: 'USD',
    decimals: 4,
    service: [batch.costUsd],
    baseline: [batch.costUsd + batch.savedUsd],
    baselineName: '(estimatedCostUsd + what the batch price saved)',
  });
  for (const l of r.lookup) {
    const rows = l.rows.toLocaleString('en');
    results.addWithTarget(
      {
        section: '14',
        measure: `Reuse look-up on a miss, account of ${rows} extractions, p50`,
        unit: 'ms',
        decimals: 2,
        service: l.p50,
        baseline: l.selectP50,
        baselineName: '(`select 1` round trip, p50)',
      },
      '< 2 ms p50',
      (s) => s < 2,
    );
    results.add({
      section: '14',
      measure: `Reuse look-up on a miss, account of ${rows} extractions, p95`,
      unit: 'ms',
      decimals: 2,
      service: l.p95,
    });
  }
  const kinds = Object.entries(r.kinds)
    .map(([set, n]) => `${n} ${set}`)
    .join(', ');
  const plan = r.lookup.at(-1)?.plan ?? '';
  const index = /Index (?:Only )?Scan using (\w+) on extractions/.exec(plan)?.[1] ?? 'no index';
  results.note(
    `§14: one API and one worker process (BATCH_POLL_MS 200) against the model stand-in in oracle mode answering at once, its Files and Batches interface completing a batch at once; documents sent 4 at a time as multipart uploads with \`Prefer: respond-async\`, each record read until final. The corpus: ${kinds} (the data sets' file cases; generated ones are one-page text-PDF invoices). One repetition of the runs. Tokens and cost are the records' own (\`totalTokens\`, \`usage.estimatedCostUsd\` at the default price table), the stand-in's token estimate (4 characters a token). The look-up: \`findReusableForSchema\` as a create runs it, with a random key each time, ${r.lookups} look-ups per account and repetition (three repetitions; the cell is the median of their percentiles), sequential on one connection after 200 to warm up, so each figure is one look-up's own latency; the accounts written with generate_series over 7 days (97% completed, each completed row with its own key) and vacuumed; its plan uses ${index}.`,
  );
}
