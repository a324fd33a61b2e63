import type { CaseScore } from './score.ts';
import { estimateCost, type PriceTable, type TokenSplit } from './prices.ts';
import type {
  ArrayFigure,
  CaseReport,
  EvalReport,
  EvalSettings,
  FieldFigure,
  Mismatch,
} from './report-types.ts';

/** What running one case produced, before scoring figures are summed. */
export interface CaseOutcome {
  case: string;
  status: 'completed' | 'failed';
  extractionId: string | null;
  error: { code: string; message: string } | null;
  score: CaseScore;
  tokens: number;
  /** what the model answered, for the cost estimate's split when the record has no `usage` */
  output: unknown;
  /** the record's input, output and cached input tokens, when the service reports them */
  usage?: TokenSplit | undefined;
  /** what the record says the tokens cost (docs/cost.md); undefined when it says nothing */
  costUsd?: number | undefined;
  latencyMs: number;
}

export function buildReport(input: {
  dataset: string;
  settings: EvalSettings;
  /** the model the prices are looked up for: `--model`, else the service's default */
  pricedModel: string;
  prices: PriceTable;
  outcomes: CaseOutcome[];
  now?: Date;
}): EvalReport {
  const { outcomes } = input;
  const leaves = outcomes.flatMap((o) => o.score.leaves);
  const matched = leaves.filter((l) => l.matched).length;
  const costs = outcomes.map((o) =>
    estimateCost(input.prices, input.pricedModel, o.tokens, o.output, o.usage),
  );
  const latencies = outcomes.map((o) => o.latencyMs);
  return {
    version: 1,
    dataset: input.dataset,
    createdAt: (input.now ?? new Date()).toISOString(),
    settings: input.settings,
    summary: {
      cases: outcomes.length,
      completed: outcomes.filter((o) => o.status === 'completed').length,
      failed: outcomes.filter((o) => o.status === 'failed').length,
      leaves: leaves.length,
      matched,
      accuracy: ratio(matched, leaves.length),
      tokens: outcomes.reduce((sum, o) => sum + o.tokens, 0),
      estimatedCost: costs.some((c) => c === null)
        ? null
        : round6(costs.reduce<number>((sum, c) => sum + (c ?? 0), 0)),
      recordedCostUsd: outcomes.some((o) => o.costUsd === undefined)
        ? null
        : round6(outcomes.reduce((sum, o) => sum + (o.costUsd ?? 0), 0)),
      latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    },
    fields: fieldFigures(outcomes),
    arrays: arrayFigures(outcomes),
    cases: outcomes.map(caseReport),
  };
}

function fieldFigures(outcomes: CaseOutcome[]): FieldFigure[] {
  const byPattern = new Map<string, { leaves: number; matched: number }>();
  for (const leaf of outcomes.flatMap((o) => o.score.leaves)) {
    const figure = byPattern.get(leaf.pattern) ?? { leaves: 0, matched: 0 };
    figure.leaves += 1;
    if (leaf.matched) figure.matched += 1;
    byPattern.set(leaf.pattern, figure);
  }
  return [...byPattern].map(([pattern, f]) => ({
    pattern,
    ...f,
    accuracy: ratio(f.matched, f.leaves),
  }));
}

function arrayFigures(outcomes: CaseOutcome[]): ArrayFigure[] {
  const byPattern = new Map<string, { expected: number; actual: number; found: number }>();
  for (const array of outcomes.flatMap((o) => o.score.arrays)) {
    const figure = byPattern.get(array.pattern) ?? { expected: 0, actual: 0, found: 0 };
    figure.expected += array.expected;
    figure.actual += array.actual;
    figure.found += array.found;
    byPattern.set(array.pattern, figure);
  }
  return [...byPattern].map(([pattern, f]) => ({
    pattern,
    expectedItems: f.expected,
    actualItems: f.actual,
    foundItems: f.found,
    precision: ratio(f.found, f.actual),
    recall: ratio(f.found, f.expected),
  }));
}

function caseReport(outcome: CaseOutcome): CaseReport {
  const { leaves, extras } = outcome.score;
  const matched = leaves.filter((l) => l.matched).length;
  // A failed case misses every leaf; listing each would only repeat the expected value.
  const mismatches: Mismatch[] =
    outcome.status === 'failed'
      ? []
      : [
          ...leaves
            .filter((l) => !l.matched)
            .map((l) => ({ path: l.path, expected: l.expected, actual: l.actual })),
          ...extras.map((e) => ({ path: e.path, actual: e.actual })),
        ];
  return {
    case: outcome.case,
    status: outcome.status,
    extractionId: outcome.extractionId,
    error: outcome.error,
    leaves: leaves.length,
    matched,
    accuracy: ratio(matched, leaves.length),
    tokens: outcome.tokens,
    latencyMs: outcome.latencyMs,
    mismatches,
  };
}

/** An empty denominator is nothing to miss: 1. */
function ratio(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

/** Nearest-rank percentile; 0 for no values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
