import { MISMATCHES_SHOWN, ms, pct, shown, signedPct, usd } from './format.ts';
import type { EvalReport } from './report-types.ts';

/**
 * One HTML file with its styles inline and no scripts or remote resources, so it opens
 * anywhere (a CI artifact, a mail attachment) as it looked when written.
 */
export function renderHtml(report: EvalReport): string {
  const { summary: s } = report;
  const figures: Array<[string, string]> = [
    ['Accuracy', pct(s.accuracy)],
    ['Leaves matched', `${s.matched} / ${s.leaves}`],
    ['Cases', `${s.completed} completed, ${s.failed} failed`],
    ['Tokens', String(s.tokens)],
    ['Estimated cost', usd(s.estimatedCost)],
    ['Latency p50 / p95', `${ms(s.latencyMs.p50)} / ${ms(s.latencyMs.p95)}`],
    ...(s.recorded
      ? ([['Before review (as recorded)', pct(s.recorded.accuracy)]] as Array<[string, string]>)
      : []),
  ];
  const body = [
    `<h1>Evaluation: ${esc(report.dataset)}</h1>`,
    `<p class="meta">${esc(report.createdAt)} · model ${esc(report.settings.model ?? 'service default')} · ${esc(report.settings.baseUrl)}${report.settings.citations ? ' · citations on' : ''}</p>`,
    `<div class="figures">${figures.map(([k, v]) => `<div><span>${esc(k)}</span><strong>${esc(v)}</strong></div>`).join('')}</div>`,
    report.comparison ? comparison(report) : '',
    '<h2>Fields</h2>',
    table(
      ['Field', 'Accuracy', 'Matched'],
      report.fields.map((f) => [code(f.pattern), bar(f.accuracy), `${f.matched} / ${f.leaves}`]),
    ),
    report.arrays.length === 0
      ? ''
      : '<h2>Arrays</h2>' +
        table(
          ['Array', 'Expected', 'Output', 'Found', 'Precision', 'Recall'],
          report.arrays.map((a) => [
            code(a.pattern),
            String(a.expectedItems),
            String(a.actualItems),
            String(a.foundItems),
            pct(a.precision),
            pct(a.recall),
          ]),
        ),
    '<h2>Cases</h2>',
    ...report.cases.map((c) => {
      const head = `${esc(c.case)} — ${esc(c.status)}${c.error ? ` (${esc(c.error.code)})` : ''} — ${pct(c.accuracy)}`;
      const detail = [
        `<p class="meta">extraction ${esc(c.extractionId ?? '–')} · ${c.tokens} tokens · ${ms(c.latencyMs)}</p>`,
        c.error ? `<p class="error">${esc(c.error.message)}</p>` : '',
        c.mismatches.length === 0
          ? ''
          : table(
              ['Path', 'Expected', 'Actual'],
              c.mismatches
                .slice(0, MISMATCHES_SHOWN)
                .map((m) => [code(m.path), esc(shown(m.expected, 200)), esc(shown(m.actual, 200))]),
              true,
            ) +
            (c.mismatches.length > MISMATCHES_SHOWN
              ? `<p class="meta">…and ${c.mismatches.length - MISMATCHES_SHOWN} more in the JSON report.</p>`
              : ''),
      ].join('');
      const open = c.accuracy < 1 || c.status === 'failed' ? ' open' : '';
      return `<details${open}><summary class="${c.accuracy < 1 ? 'bad' : 'good'}">${head}</summary>${detail}</details>`;
    }),
  ].join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Evaluation: ${esc(report.dataset)}</title>
<style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

function comparison(report: EvalReport): string {
  const c = report.comparison!;
  const list = (title: string, items: typeof c.gains) =>
    `<h3>${title}</h3>` +
    (items.length === 0
      ? '<p class="meta">None.</p>'
      : table(
          ['Field', 'Before', 'After', 'Change'],
          items.map((f) => [
            code(f.pattern),
            f.before === null ? '–' : pct(f.before),
            f.after === null ? '–' : pct(f.after),
            signedPct(f.delta),
          ]),
        ));
  return `<h2>Compared with ${esc(c.against)}</h2><p>Accuracy ${pct(c.accuracyBefore)} → ${pct(c.accuracyAfter)} (${signedPct(c.accuracyAfter - c.accuracyBefore)})</p>${list('Regressions', c.regressions)}${list('Gains', c.gains)}`;
}

/** Cells are HTML already escaped by the caller. */
function table(head: string[], rows: string[][], wide = false): string {
  return `<table${wide ? ' class="wide"' : ''}><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function bar(value: number): string {
  return `<span class="bar"><span style="width:${(value * 100).toFixed(1)}%"></span></span> ${pct(value)}`;
}

function code(text: string): string {
  return `<code>${esc(text)}</code>`;
}

function esc(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

const STYLE = `body{font:14px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.5rem}h2{margin-top:2rem;font-size:1.2rem}.meta{color:#57606a}.error{color:#b42318}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem}
.figures div{border:1px solid #d0d7de;border-radius:6px;padding:.5rem .75rem}.figures span{display:block;color:#57606a;font-size:.8rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border-bottom:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}
table.wide td{word-break:break-word;max-width:30rem}code{font-size:.85rem}
.bar{display:inline-block;width:6rem;height:.6rem;background:#eaeef2;border-radius:3px;vertical-align:middle}
.bar span{display:block;height:100%;background:#2da44e;border-radius:3px}
details{border:1px solid #d0d7de;border-radius:6px;margin:.4rem 0;padding:.3rem .75rem}
summary{cursor:pointer;font-weight:600}summary.bad{color:#9a6700}summary.good{color:#1a7f37}`;
