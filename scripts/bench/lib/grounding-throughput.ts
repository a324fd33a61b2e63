/**
 * The grounding library alone (packages/grounding), on a generated statement: CPU time to index
 * a many-page source and to cite a long table against it, and whether every planted value was
 * found and every invented one flagged. No servers: a section of `npm run bench` calls it and
 * prints the figures.
 */
import type { GroundingPage, GroundingSource } from '@xt/contract';
import { buildCitations, indexSource } from '@xt/grounding';

export interface GroundingThroughput {
  pages: number;
  characters: number;
  /** Leaves cited per run (table rows × 5, plus the invented rows'). */
  leaves: number;
  /** Median CPU milliseconds to index the source once. */
  indexMs: number;
  /** Median CPU milliseconds to cite every leaf against that index. */
  citeMs: number;
  /** Of the values present in the source, the share grounded (goal 1). */
  groundedShare: number;
  /** Of the invented values, the share flagged ungrounded (goal 1). */
  inventedFlagged: number;
}

interface Row {
  sku: string;
  description: string;
  quantity: number;
  amount: number;
  date: string;
}

const LINES_PER_PAGE = 50;

function statement(pages: number, rows: number): { source: GroundingSource; table: Row[] } {
  const table: Row[] = [];
  const perPage = Math.ceil(rows / pages);
  const out: GroundingPage[] = [];
  for (let page = 1; page <= pages; page++) {
    const lines: GroundingPage['lines'] = [];
    for (let line = 0; line < LINES_PER_PAGE; line++) {
      const box: [number, number, number, number] = [0.08, line / 52, 0.92, line / 52 + 0.015];
      const r = table.length;
      if (line >= 4 && line < 4 + perPage && r < rows) {
        const month = (r % 12) + 1;
        const day = (r % 28) + 1;
        const row: Row = {
          sku: `SKU-${100000 + r}`,
          description: `Replacement filter cartridge, model ${r}`,
          quantity: (r % 9) + 1,
          amount: 100 + r * 1.25,
          date: `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
        };
        table.push(row);
        // Written the way statements write them, not the way JSON does.
        const amount = row.amount.toLocaleString('en-US', { minimumFractionDigits: 2 });
        const date = `${day} ${new Date(Date.UTC(2024, month - 1, 1)).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} 2024`;
        lines.push({
          text: `${row.sku}  ${row.description}  ${row.quantity}  ${amount} EUR  ${date}`,
          box,
        });
      } else {
        lines.push({
          text: `Page ${page} line ${line}: terms and conditions apply to every order placed.`,
          box,
        });
      }
    }
    out.push({ page, lines });
  }
  return { source: { kind: 'pages', pages: out }, table };
}

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export function groundingThroughput(
  options: { pages?: number; rows?: number; invented?: number; reps?: number } = {},
): GroundingThroughput {
  const { pages = 200, rows = 1500, invented = 100, reps = 5 } = options;
  const { source, table } = statement(pages, rows);
  const fake = Array.from({ length: invented }, (_, i) => ({
    sku: `SKU-9${i}9999`,
    amount: 987654.32 + i,
  }));
  const output = { rows: table, invented: fake };
  const indexRuns: number[] = [];
  const citeRuns: number[] = [];
  let result: ReturnType<typeof buildCitations> | undefined;
  let characters = 0;
  for (let rep = 0; rep < reps; rep++) {
    let index: ReturnType<typeof indexSource> | undefined;
    indexRuns.push(cpuMs(() => (index = indexSource(source))));
    characters = index!.flat.length;
    citeRuns.push(cpuMs(() => (result = buildCitations({ output, source: index! }))));
  }
  const citations = result!.citations;
  const pointers = Object.keys(citations);
  const present = pointers.filter((p) => p.startsWith('/rows/'));
  const planted = pointers.filter((p) => p.startsWith('/invented/'));
  return {
    pages,
    characters,
    leaves: pointers.length,
    indexMs: median(indexRuns),
    citeMs: median(citeRuns),
    groundedShare: present.filter((p) => citations[p]!.grounded).length / present.length,
    inventedFlagged: planted.filter((p) => !citations[p]!.grounded).length / (planted.length || 1),
  };
}
