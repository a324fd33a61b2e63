import { ms, pct, usd } from './format.ts';
import type { EvalReport } from './report-types.ts';

export interface ModelRun {
  /** null: the service's default model */
  model: string | null;
  report: EvalReport;
}

/**
 * One column per model over the same data set, the figures a person weighs when choosing one:
 * is the cheaper or local model accurate enough, and what does it cost in time and failures.
 */
export function renderSideBySide(runs: ModelRun[]): string {
  const dataset = runs[0]?.report.dataset ?? '';
  const rows: [string, (r: EvalReport) => string][] = [
    ['Accuracy', (r) => pct(r.summary.accuracy)],
    ['Total tokens', (r) => String(r.summary.tokens)],
    ['Estimated cost', (r) => cost(r)],
    ['Latency per document, median', (r) => ms(r.summary.latencyMs.p50)],
    ['Latency per document, p95', (r) => ms(r.summary.latencyMs.p95)],
    ['Failures', (r) => `${r.summary.failed} of ${r.summary.cases}`],
  ];
  const names = runs.map((r) => r.model ?? 'service default');
  return [
    `# Models side by side: ${dataset}`,
    '',
    `| | ${names.map((n) => `\`${n}\``).join(' | ')} |`,
    `| --- |${' ---: |'.repeat(runs.length)}`,
    ...rows.map(
      ([label, figure]) => `| ${label} | ${runs.map((r) => figure(r.report)).join(' | ')} |`,
    ),
    '',
    'Cost as each record states it (the service’s prices, docs/cost.md); latency from submission to the final answer.',
    '',
  ].join('\n');
}

/** The records' figure; from the price table only when a case has no record to read. */
function cost(report: EvalReport): string {
  const { recordedCostUsd, estimatedCost } = report.summary;
  if (recordedCostUsd !== null) return usd(recordedCostUsd);
  return estimatedCost === null ? 'unknown' : `${usd(estimatedCost)} (price table)`;
}
