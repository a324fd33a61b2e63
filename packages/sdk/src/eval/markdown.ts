import { MISMATCHES_SHOWN, ms, pct, shown, signedPct, usd } from './format.ts';
import type { EvalReport } from './report-types.ts';

/** The summary printed on standard output: GitHub-flavoured Markdown tables. */
export function renderMarkdown(report: EvalReport): string {
  const { summary: s } = report;
  const out: string[] = [
    `# Evaluation: ${report.dataset}`,
    '',
    '| Cases | Completed | Failed | Accuracy | Leaves matched | Tokens | Est. cost | Latency p50 | Latency p95 |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${s.cases} | ${s.completed} | ${s.failed} | ${pct(s.accuracy)} | ${s.matched} / ${s.leaves} | ${s.tokens} | ${usd(s.estimatedCost)} | ${ms(s.latencyMs.p50)} | ${ms(s.latencyMs.p95)} |`,
    '',
    `Model: ${report.settings.model ?? 'service default'} · service: ${report.settings.baseUrl}${report.settings.citations ? ' · citations on' : ''}`,
    '',
    ...(s.recorded
      ? [
          `Before review: the results as recorded score ${pct(s.recorded.accuracy)} (${s.recorded.matched} / ${s.recorded.leaves} leaves of ${s.recorded.cases} cases) against the reviewed ones; this run scores ${pct(s.accuracy)}.`,
          '',
        ]
      : []),
    '## Fields',
    '',
    '| Field | Accuracy | Matched |',
    '| --- | ---: | ---: |',
    ...report.fields.map(
      (f) => `| \`${f.pattern}\` | ${pct(f.accuracy)} | ${f.matched} / ${f.leaves} |`,
    ),
  ];
  if (report.arrays.length > 0) {
    out.push(
      '',
      '## Arrays',
      '',
      '| Array | Expected items | Output items | Found | Precision | Recall |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...report.arrays.map(
        (a) =>
          `| \`${a.pattern}\` | ${a.expectedItems} | ${a.actualItems} | ${a.foundItems} | ${pct(a.precision)} | ${pct(a.recall)} |`,
      ),
    );
  }
  out.push(
    '',
    '## Cases',
    '',
    '| Case | Status | Accuracy | Tokens | Latency | Extraction |',
    '| --- | --- | ---: | ---: | ---: | --- |',
    ...report.cases.map(
      (c) =>
        `| ${c.case} | ${c.status}${c.error ? ` (${c.error.code})` : ''} | ${pct(c.accuracy)} | ${c.tokens} | ${ms(c.latencyMs)} | ${c.extractionId ?? '–'} |`,
    ),
  );
  const withMismatches = report.cases.filter((c) => c.mismatches.length > 0);
  if (withMismatches.length > 0) {
    out.push('', '## Mismatches', '');
    for (const c of withMismatches) {
      out.push(`### ${c.case}`, '', '| Path | Expected | Actual |', '| --- | --- | --- |');
      for (const m of c.mismatches.slice(0, MISMATCHES_SHOWN)) {
        out.push(`| \`${m.path}\` | ${cell(shown(m.expected))} | ${cell(shown(m.actual))} |`);
      }
      const more = c.mismatches.length - MISMATCHES_SHOWN;
      if (more > 0) out.push('', `…and ${more} more (all are in the JSON report).`);
      out.push('');
    }
  }
  if (report.comparison) out.push(...comparison(report));
  return `${out.join('\n').trimEnd()}\n`;
}

function comparison(report: EvalReport): string[] {
  const c = report.comparison!;
  const rows = (label: string, list: typeof c.gains) =>
    list.length === 0
      ? [`${label}: none.`, '']
      : [
          `${label}:`,
          '',
          '| Field | Before | After | Change |',
          '| --- | ---: | ---: | ---: |',
          ...list.map(
            (f) =>
              `| \`${f.pattern}\` | ${f.before === null ? '–' : pct(f.before)} | ${f.after === null ? '–' : pct(f.after)} | ${signedPct(f.delta)} |`,
          ),
          '',
        ];
  return [
    '',
    `## Compared with ${c.against}`,
    '',
    `Accuracy ${pct(c.accuracyBefore)} → ${pct(c.accuracyAfter)} (${signedPct(c.accuracyAfter - c.accuracyBefore)}).`,
    '',
    ...rows('Regressions', c.regressions),
    ...rows('Gains', c.gains),
  ];
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
