import type { Dataset } from './dataset.ts';
import type { RecordedFigure } from './report-types.ts';
import { scoreOutput } from './score.ts';

/**
 * The results as recorded (`recorded/<case>.json`, the model's output when a person reviewed
 * it) scored against the expected (reviewed) ones: the accuracy before review, beside this
 * run's. Undefined when no case of the data set has one.
 */
export function recordedFigure(dataset: Dataset): RecordedFigure | undefined {
  const cases = dataset.cases.filter((c) => c.recorded !== undefined);
  if (cases.length === 0) return undefined;
  const leaves = cases.flatMap((c) => scoreOutput(c.expected, c.recorded).leaves);
  const matched = leaves.filter((l) => l.matched).length;
  return {
    cases: cases.length,
    leaves: leaves.length,
    matched,
    accuracy: leaves.length === 0 ? 1 : matched / leaves.length,
  };
}
