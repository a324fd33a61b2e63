import { ExtractionFailure, type Structure } from '@xt/contract';
import { carry } from './annotations.ts';
import { mergeTracked } from './merge.ts';
import type { CallResult } from './model-call.ts';
import { relaxStructure } from './relax.ts';
import { validateOutput } from './validate-output.ts';

/**
 * The answers for the pieces of one document, given in document order, as one answer: the
 * chunks of one job's source, or the page windows of a long document that several jobs worked
 * (docs/scaling.md#one-large-document). Each piece was answered against the relaxed structure;
 * the merged output must match the real one. What the model said about each value follows it
 * into the merged output, and a list left unfinished in any piece is reported.
 */
export function mergeAnswers(structure: Structure, answers: CallResult[]): CallResult {
  const merged = mergePieces(structure, answers);
  const { output, truncated } = merged;
  // A list left unfinished may also have left the fields after it unwritten: it is reported.
  const errors = validateOutput(
    truncated.length > 0 ? relaxStructure(structure) : structure,
    output,
  );
  if (errors.length > 0) {
    throw new ExtractionFailure(
      'OUTPUT_INVALID',
      `The merged output of ${answers.length} parts does not match the structure: ${errors
        .slice(0, 5)
        .map((e) => `${e.field} ${e.message}`)
        .join('; ')}`,
    );
  }
  return merged;
}

/** The same merge without the check: a window's chunks, whose answer is one piece of many. */
export function mergePieces(structure: Structure, answers: CallResult[]): CallResult {
  const { merged, moves } = mergeTracked(
    structure,
    answers.map((a) => a.output),
  );
  return {
    output: merged,
    annotations: carry(
      answers.map((a) => a.annotations),
      moves,
    ),
    // Lists are merged by key path, so a list's pointer is the same in the merged output.
    truncated: [...new Set(answers.flatMap((a) => a.truncated))],
  };
}
