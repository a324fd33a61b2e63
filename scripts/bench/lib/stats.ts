/** Small statistics helpers shared by the benchmark sections. */

/** The p-th percentile (0–100) of `values` by the nearest-rank method; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** One measured figure over repeated runs: its median and the spread (min–max) around it. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function summarise(values: readonly number[]): Summary {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0 };
  return {
    median: median(finite),
    min: Math.min(...finite),
    max: Math.max(...finite),
    runs: finite.length,
  };
}

/** `12.3 (11.9–13.0)` with the given decimals; the range is left out for a single run. */
export function formatSummary(s: Summary, decimals = 1): string {
  if (s.runs === 0) return 'n/a';
  const f = (v: number) => v.toFixed(decimals);
  return s.runs === 1 ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
}
