import type { PreparedSource } from '@xt/contract';
import type { Spent } from '@xt/extractions';
import { groundOutput, type ModelAnswer } from '@xt/grounding';
import type { PagePreviews } from '../page-previews/index.ts';
import type { JobLifecycle } from './lifecycle.ts';

export interface FinishDeps {
  lifecycle: Pick<JobLifecycle, 'complete'>;
  /** Stores previews of the cited pages; none when absent. */
  previews?: PagePreviews | undefined;
}

/**
 * The answer grounded in the source as read (with citations), previews of its cited pages, and
 * the completion: output, tokens, cost and charge in one conditional update. `written` is false when
 * the row was no longer `processing` (deleted, or finished by another delivery): nothing of
 * this job is then kept.
 */
export async function finishStep(
  deps: FinishDeps,
  extractionId: string,
  citationsRequested: boolean,
  source: PreparedSource,
  result: ModelAnswer,
  spent: Spent & { savedUsd?: number },
): Promise<{ written: boolean }> {
  const grounded = groundOutput(result, source, citationsRequested);
  const pageImages = await deps.previews?.(source, grounded.citations);
  const written = await deps.lifecycle.complete(extractionId, result.output, spent, {
    ...grounded,
    pageImages,
  });
  return { written };
}
