/** The JSON report (`--out`): what `--compare` reads back. */
export interface EvalReport {
  version: 1;
  dataset: string;
  createdAt: string;
  settings: EvalSettings;
  summary: Summary;
  fields: FieldFigure[];
  arrays: ArrayFigure[];
  cases: CaseReport[];
  comparison?: Comparison;
}

export interface EvalSettings {
  baseUrl: string;
  /** null: the service's default model */
  model: string | null;
  instruction: string | null;
  citations: boolean;
  concurrency: number;
}

export interface Summary {
  cases: number;
  completed: number;
  failed: number;
  /** every expected leaf of every case, failed ones included */
  leaves: number;
  matched: number;
  /** matched ÷ leaves */
  accuracy: number;
  tokens: number;
  /** USD, from the price table; null when the model has no price */
  estimatedCost: number | null;
  /**
   * USD, the sum of the records' `usage.estimatedCostUsd`: the service's own prices, so a model
   * the price table lacks still has a figure; null when a case has no record to read
   */
  recordedCostUsd: number | null;
  latencyMs: { p50: number; p95: number };
  /**
   * A data set exported from reviews (docs/review.md): the model's results as recorded when
   * they were reviewed, scored against the reviewed ones; absent for other data sets
   */
  recorded?: RecordedFigure;
}

/** Accuracy of the recorded results (before review) against the expected (reviewed) ones. */
export interface RecordedFigure {
  /** cases with a `recorded/<case>.json` */
  cases: number;
  leaves: number;
  matched: number;
  accuracy: number;
}

export interface FieldFigure {
  pattern: string;
  leaves: number;
  matched: number;
  accuracy: number;
}

export interface ArrayFigure {
  pattern: string;
  expectedItems: number;
  actualItems: number;
  foundItems: number;
  /** found ÷ actual (1 when the output had none and none were expected) */
  precision: number;
  /** found ÷ expected */
  recall: number;
}

export interface Mismatch {
  path: string;
  /** undefined (left out of the JSON) when the output has an item no expected one matched */
  expected?: unknown;
  /** undefined (left out of the JSON) when the output had nothing there */
  actual?: unknown;
}

export interface CaseReport {
  case: string;
  status: 'completed' | 'failed';
  extractionId: string | null;
  error: { code: string; message: string } | null;
  leaves: number;
  matched: number;
  accuracy: number;
  tokens: number;
  latencyMs: number;
  mismatches: Mismatch[];
}

export interface FieldChange {
  pattern: string;
  before: number | null;
  after: number | null;
  delta: number;
}

export interface Comparison {
  /** the earlier report's file */
  against: string;
  accuracyBefore: number;
  accuracyAfter: number;
  gains: FieldChange[];
  regressions: FieldChange[];
}
