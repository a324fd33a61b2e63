/** The benchmark's one table, as Markdown, and the page around it. */
import { cpus, totalmem } from 'node:os';
import { formatSummary, summarise, type Summary } from './stats.ts';

export interface Row {
  section: string;
  measure: string;
  unit: string;
  service: Summary;
  baseline?: Summary;
  baselineName?: string;
  decimals?: number;
  /** Human-readable target and whether this run met it (undefined: no target). */
  target?: { text: string; met: boolean };
}

export class Results {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];

  add(row: Omit<Row, 'service' | 'baseline'> & { service: number[]; baseline?: number[] }): Row {
    const full: Row = {
      ...row,
      service: summarise(row.service),
      baseline: row.baseline ? summarise(row.baseline) : undefined,
    };
    this.rows.push(full);
    return full;
  }

  /** Targets are judged on medians: `check(median of service, median of baseline)`. */
  addWithTarget(
    row: Omit<Row, 'service' | 'baseline' | 'target'> & { service: number[]; baseline?: number[] },
    text: string,
    check: (service: number, baseline: number) => boolean,
  ): Row {
    const added = this.add(row);
    const met = check(added.service.median, added.baseline?.median ?? Number.NaN);
    added.target = { text, met };
    return added;
  }

  note(line: string): void {
    this.notes.push(line);
  }
}

const cell = (s: Summary | undefined, decimals: number) => (s ? formatSummary(s, decimals) : '—');

export function markdownTable(rows: readonly Row[]): string {
  const lines = [
    '| § | Measure | Service | Baseline (same run) | Service / baseline | Target |',
    '| - | ------- | ------- | ------------------- | ------------------ | ------ |',
  ];
  for (const r of rows) {
    const d = r.decimals ?? 1;
    const ratio =
      r.baseline && r.baseline.runs > 0 && r.baseline.median !== 0
        ? `${(r.service.median / r.baseline.median).toFixed(2)}×`
        : '—';
    const target = r.target ? `${r.target.met ? 'met' : '**not met**'}: ${r.target.text}` : '';
    lines.push(
      `| ${r.section} | ${r.measure} (${r.unit}) | ${cell(r.service, d)} | ${
        r.baseline ? `${cell(r.baseline, d)} ${r.baselineName ?? ''}`.trim() : '—'
      } | ${ratio} | ${target} |`,
    );
  }
  return lines.join('\n');
}

export function machineLine(): string {
  const cpu = cpus();
  return `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}
