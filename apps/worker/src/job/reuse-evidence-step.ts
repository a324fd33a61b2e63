import type { Logger } from 'pino';
import type { PreparedSource } from '@xt/contract';
import { errorSummary } from '@xt/runtime';
import type { PagePreviews } from '../page-previews/index.ts';
import type { JobReuse } from './reuse-step.ts';

export interface ReuseEvidenceDeps {
  reuse: Pick<JobReuse, 'evidenceToDraw' | 'recordDrawn'>;
  /** Stores previews of the cited pages; none when absent. */
  previews?: PagePreviews | undefined;
}

/**
 * After a URL source was completed from an earlier answer whose evidence was already swept (its
 * answer outlives its previews, docs/reuse.md#evidence): the copy's page previews and cells
 * drawn from the source this job has just fetched and prepared, as a completion draws them, so
 * that a fresh extraction does not show its boxes on blank pages. A copy that got copies of its
 * original's is left as it is. Best effort: the copy is complete already, so a failure here
 * costs the previews, never the extraction.
 */
export async function reuseEvidenceStep(
  deps: ReuseEvidenceDeps,
  extractionId: string,
  source: PreparedSource,
  log: Logger,
): Promise<void> {
  if (!deps.previews) return;
  try {
    const citations = await deps.reuse.evidenceToDraw(extractionId);
    if (!citations) return;
    const drawn = await deps.previews(source, citations);
    if (!drawn) return;
    // Deleted meanwhile: what was drawn is left to the orphan sweep, as for any completion.
    const written = await deps.reuse.recordDrawn(extractionId, drawn);
    log.info({ pages: Object.keys(drawn).length, written }, 'evidence of a reused answer drawn');
  } catch (err) {
    log.warn({ error: errorSummary(err) }, 'evidence of a reused answer not drawn');
  }
}
