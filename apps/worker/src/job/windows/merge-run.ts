import { WaitingChildrenError, type Job } from 'bullmq';
import type { PriceTable } from '@xt/model';
import type { ExtractJobPayload } from '@xt/queue';
import type { StageTimer } from '../../ops/stages.ts';
import { priceSpend } from '../cost.ts';
import { asFailure, failureStep } from '../failure-step.ts';
import { finishStep } from '../finish-step.ts';
import { completed, type JobEnd } from '../job-end.ts';
import type { JobLifecycle } from '../lifecycle.ts';
import { mergeWindowsStep } from './merge-step.ts';
import { planWindows } from './plan.ts';
import type { WindowStore } from './store.ts';
import { waitForWindows } from './wait-step.ts';

export interface MergeRunDeps {
  lifecycle: JobLifecycle;
  windows?: { store: WindowStore } | undefined;
  prices: PriceTable;
  time: StageTimer;
}

/**
 * The extraction job's `merge-windows` step, run once the document is split and again when its
 * windows have run: each window still missing is queued (a lost one added again) and the job
 * waits for them, holding no slot; once every window is stored their answers are merged in page
 * order, grounded in the document's pages, completed and charged once for what all of them
 * spent. A merge that fails fails the extraction: merging again would give the same answer.
 */
export function mergeRun(deps: MergeRunDeps) {
  const { lifecycle, prices, time } = deps;
  return async function mergeWindows(
    job: Job,
    token: string | undefined,
    payload: ExtractJobPayload,
  ): Promise<JobEnd> {
    const windows = deps.windows;
    const split = payload.windows;
    if (!windows || !token || !split) throw new Error('page windows need the job token');
    const found = await windows.store.row(payload.extractionId);
    if (found.kind !== 'processing') {
      const outcome = found.kind === 'gone' ? 'deleted' : 'duplicate';
      return {
        end: 'finished',
        status: outcome,
        outcome,
        message: 'extraction deleted or finished while its windows ran',
        fields: { reason: found.kind },
      };
    }
    const row = found.row;
    const state = await waitForWindows(job, token, payload, split, {
      windows: windows.store,
      lifecycle,
    });
    if (state === 'waiting') throw new WaitingChildrenError();
    const stored = await windows.store.list(row.id);
    if (stored.length < planWindows(split.pagesTotal, split.splitPages).length)
      throw new Error('page windows missing after every window finished; retried');
    let merged;
    try {
      merged = mergeWindowsStep(row.schemaStructure, stored);
    } catch (err) {
      const failure = asFailure(err);
      const { written } = await failureStep(lifecycle, row.id, failure, 'fail', (spend) =>
        priceSpend(prices, row, spend),
      );
      return {
        end: 'failed',
        failure,
        written,
        message: 'extraction failed: its windows do not merge',
      };
    }
    const pageImages = merged.pageImages;
    if (split.revisions) merged.source.revisions = split.revisions;
    const { written } = await time('store', row.sourceType, () =>
      finishStep(
        { lifecycle, previews: () => Promise.resolve(pageImages) },
        row.id,
        row.citationsRequested,
        merged.source,
        merged.answer,
        priceSpend(prices, row, { tokens: merged.tokens, usage: merged.usage }),
      ),
    );
    return completed(written, 'extraction completed from its page windows', {
      tokens: merged.tokens,
      calls: merged.calls,
      windows: stored.length,
    });
  };
}
