import type { Comparison, EvalReport, FieldChange } from './report-types.ts';

/**
 * Per-field gains and regressions of `after` against an earlier report of the same data set. A
 * field only one report has counts from 0 on the side that lacks it.
 */
export function compareReports(before: EvalReport, after: EvalReport, against: string): Comparison {
  const old = new Map(before.fields.map((f) => [f.pattern, f.accuracy]));
  const now = new Map(after.fields.map((f) => [f.pattern, f.accuracy]));
  const changes: FieldChange[] = [];
  for (const pattern of new Set([...old.keys(), ...now.keys()])) {
    const b = old.get(pattern) ?? null;
    const a = now.get(pattern) ?? null;
    const delta = (a ?? 0) - (b ?? 0);
    if (Math.abs(delta) > 1e-12) changes.push({ pattern, before: b, after: a, delta });
  }
  return {
    against,
    accuracyBefore: before.summary.accuracy,
    accuracyAfter: after.summary.accuracy,
    gains: changes.filter((c) => c.delta > 0).sort((x, y) => y.delta - x.delta),
    regressions: changes.filter((c) => c.delta < 0).sort((x, y) => x.delta - y.delta),
  };
}

/** Checks an earlier report's shape enough to compare against it. */
export function parseReport(text: string, file: string): EvalReport {
  const parsed = JSON.parse(text) as Partial<EvalReport>;
  if (parsed.version !== 1 || !Array.isArray(parsed.fields) || !parsed.summary) {
    throw new Error(`--compare: ${file} is not an evaluation report (version 1)`);
  }
  return parsed as EvalReport;
}
