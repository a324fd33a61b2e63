import type { Logger } from 'pino';
import {
  ExtractionFailure,
  NO_USAGE,
  type SplitResult,
  type StoredSplit,
  type UploadedFile,
} from '@xt/contract';
import { childExtractionId, type NewChild } from '@xt/extractions';
import type { PriceTable } from '@xt/model';
import type { ExtractJobPayload, ExtractJobStep } from '@xt/queue';
import { errorSummary } from '@xt/runtime';
import type { SourcePreparer } from '@xt/sources';
import type { BlobStore } from '@xt/blob-store';
import { priceSpend } from '../cost.ts';
import { withTimeout } from '../deadline.ts';
import { completed } from '../job-end.ts';
import type { ExtractionRow, JobLifecycle } from '../lifecycle.ts';
import type { ModelAccess } from '../model-access.ts';
import { recordFound } from '../prepare-step.ts';
import type { StepResult } from '../step-job.ts';
import { ChildrenWait } from './children-wait.ts';
import { classifyPages } from './classify.ts';
import { documentsOf } from './documents.ts';
import { readBundle } from './read-bundle.ts';
import type { BundleStore } from './store.ts';

/** How soon a parent looks at its children again while any is unfinished. */
export const CHILDREN_RECHECK_MS = 1_500;

export interface SplitRunDeps {
  lifecycle: JobLifecycle;
  models: ModelAccess;
  sources: SourcePreparer;
  prices: PriceTable;
  bundles?:
    | {
        store: BundleStore;
        blobs: BlobStore;
        /** Pages a classification call reads at most (SPLIT_CLASSIFY_PAGES). */
        classifyPages: number;
        maxUploadBytes: number;
      }
    | undefined;
}

/** The name a child's file record shows: the bundle's file name, or its URL's last segment. */
function bundleFileName(row: Pick<ExtractionRow, 'file' | 'source'>): string {
  if (row.file) return row.file.name;
  try {
    const last = new URL(row.source).pathname.split('/').filter(Boolean).at(-1);
    return last ? decodeURIComponent(last) : 'bundle';
  } catch {
    return 'bundle';
  }
}

/**
 * A bundle split into its documents (docs/split.md), the parent's two steps:
 *   `split` (run by the `extract` step once it has claimed a parent): read the bundle as pages,
 *     classify them in chunks, cut each document whose class names a schema into its own file,
 *     write the children and the parent's documents in one transaction, enqueue the children;
 *   `await-children`: until every child is final, put back delayed (no slot held); then the
 *     parent completes, charged for its classification calls only, and its webhook fires.
 */
export function splitRun(deps: SplitRunDeps) {
  const { lifecycle } = deps;

  function bundlesOrFail() {
    if (!deps.bundles)
      throw new ExtractionFailure(
        'SOURCE_UNSUPPORTED',
        'Splitting bundles is not enabled on this worker.',
      );
    return deps.bundles;
  }

  /** The `split` step, on a claimed parent; its failures are the row's (extraction-run.ts). */
  async function split(
    claimed: ExtractionRow,
    stored: StoredSplit,
    log: Logger,
    signal: AbortSignal,
  ): Promise<StepResult<ExtractJobStep, ExtractJobPayload>> {
    const bundles = bundlesOrFail();
    // A run after the split committed (a crash, a stalled job handed on): the children exist.
    if (isSplitResult(claimed.output)) {
      await enqueueChildren(bundles.store, claimed, claimed.output, log);
      return { next: 'await-children' };
    }
    const model = await deps.models.forModel(claimed.model, signal);
    const bundle = await withTimeout(
      readBundle(
        { sources: deps.sources, store: bundles.blobs, maxUploadBytes: bundles.maxUploadBytes },
        claimed,
        signal,
      ),
      signal,
    );
    const row = bundle.found
      ? await recordFound(lifecycle, claimed, {
          found: { type: bundle.found.kind, format: bundle.found.format },
        })
      : claimed;
    const classification = await withTimeout(
      classifyPages(
        model,
        { model: row.model, structure: row.schemaStructure, classes: stored.classes },
        bundle.pages,
        bundles.classifyPages,
        signal,
      ),
      signal,
    );
    const documents = documentsOf(
      classification.pages,
      bundle.pagesTotal,
      stored.classes.map((c) => c.name),
      stored.other,
    );
    const read = documents.flatMap((doc) => {
      const cls = stored.classes.find((c) => c.name === doc.class);
      return cls?.schemaId && cls.schemaName !== undefined && cls.schemaStructure
        ? [
            {
              doc,
              schema: { id: cls.schemaId, name: cls.schemaName, structure: cls.schemaStructure },
            },
          ]
        : [];
    });
    const files = await withTimeout(bundle.cut(read.map((r) => r.doc.pages)), signal);
    const name = bundleFileName(row);
    const children: NewChild[] = read.map(({ doc, schema }, i) => {
      const f = files[i]!;
      const file: UploadedFile = {
        name,
        size: f.bytes.byteLength,
        contentType: f.contentType,
        sha256: f.sha256,
      };
      return {
        id: childExtractionId(row.id, doc.pages),
        pages: { ...doc.pages, of: bundle.pagesTotal },
        schema,
        sourceType: f.sourceType,
        bytes: f.bytes,
        file,
      };
    });
    const idOf = new Map(read.map(({ doc }, i) => [doc, children[i]!.id]));
    const result: SplitResult = {
      documents: documents.map((d) => ({
        class: d.class,
        pages: d.pages,
        confidence: d.confidence,
        extractionId: idOf.get(d) ?? null,
      })),
    };
    const spent = priceSpend(deps.prices, row, {
      tokens: classification.tokens,
      usage: classification.usage,
    });
    const written = await bundles.store.record(row, children, result, spent);
    if (!written)
      return {
        end: 'finished',
        status: 'discarded',
        outcome: 'discarded',
        message: 'bundle deleted or finished while it was split; nothing kept',
      };
    log.info(
      {
        pages: bundle.pagesTotal,
        documents: documents.length,
        children: children.length,
        tokens: classification.tokens,
        calls: classification.calls,
      },
      'bundle split into its documents',
    );
    await enqueueChildren(bundles.store, row, result, log);
    return { next: 'await-children' };
  }

  /** The `await-children` step: the parent completes once every child is final. */
  async function awaitChildren(
    payload: ExtractJobPayload,
  ): Promise<StepResult<ExtractJobStep, ExtractJobPayload>> {
    const bundles = bundlesOrFail();
    const id = payload.extractionId;
    const row = await bundles.store.parent(id);
    if (!row) return { end: 'finished', status: 'deleted', outcome: 'deleted' };
    if (row.status === 'completed' || row.status === 'failed')
      return { end: 'finished', status: 'duplicate', outcome: 'duplicate' };
    // Handed back at shutdown while it waited: taken again, no attempt counted.
    if (row.status === 'pending') await bundles.store.resume(id);
    const left = await bundles.store.unfinished(id);
    if (left.length > 0) {
      // Progress: the bundle's pages whose documents are done (docs/api.md#progress).
      const pagesTotal = row.pagesTotal || pagesOf(row.output);
      const pagesLeft = left.reduce((n, c) => n + (c.pages ? c.pages.to - c.pages.from + 1 : 0), 0);
      await lifecycle
        .recordProgress(id, { pagesDone: Math.max(0, pagesTotal - pagesLeft), pagesTotal })
        .catch(() => false);
      // A child whose enqueue was lost gets its job now (the id is the job id: no second one).
      await bundles.store.enqueue(left.filter((c) => c.status === 'pending'));
      throw new ChildrenWait(Date.now() + CHILDREN_RECHECK_MS);
    }
    // Its own classification was added when it split; completing adds nothing.
    const written = await lifecycle.complete(
      id,
      row.output,
      { tokens: 0, usage: NO_USAGE, costUsd: 0 },
      { citations: null, warnings: null },
    );
    const documents = isSplitResult(row.output) ? row.output.documents.length : 0;
    return completed(written, 'bundle completed: every document is final', { documents });
  }

  return { split, awaitChildren };
}

/** Enqueues the children; a failure is left to the next look (await-children) and the reconciler. */
async function enqueueChildren(
  store: BundleStore,
  parent: Pick<ExtractionRow, 'accountId' | 'requestId'>,
  result: SplitResult,
  log: Logger,
): Promise<void> {
  const ids = result.documents.flatMap((d) => (d.extractionId ? [d.extractionId] : []));
  await store
    .enqueue(ids.map((id) => ({ id, accountId: parent.accountId, requestId: parent.requestId })))
    .catch((err: unknown) =>
      log.info({ error: errorSummary(err) }, 'children not enqueued; the parent will retry'),
    );
}

/** The bundle's pages, as its documents cover them. */
function pagesOf(output: unknown): number {
  return isSplitResult(output) ? Math.max(0, ...output.documents.map((d) => d.pages.to)) : 0;
}

function isSplitResult(output: unknown): output is SplitResult {
  return (
    output !== null &&
    typeof output === 'object' &&
    Array.isArray((output as { documents?: unknown }).documents)
  );
}
