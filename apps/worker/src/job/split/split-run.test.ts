import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { SplitResult, StoredSplit } from '@xt/contract';
import { DEFAULT_PRICES } from '@xt/model';
import type { SourcePreparer } from '@xt/sources';
import type { BlobStore } from '@xt/blob-store';
import { claimedRow } from '../../../test/claimed-row.ts';
import type { JobLifecycle } from '../lifecycle.ts';
import type { ModelAccess } from '../model-access.ts';
import { ChildrenWait } from './children-wait.ts';
import { splitRun } from './split-run.ts';
import type { BundleStore } from './store.ts';

const log = pino({ level: 'silent' });
const split: StoredSplit = { classes: [{ name: 'invoice', schemaId: 's' }], other: true };
const documents: SplitResult = {
  documents: [
    { class: 'invoice', pages: { from: 1, to: 2 }, confidence: 0.9, extractionId: 'child-1' },
    { class: 'other', pages: { from: 3, to: 3 }, confidence: 0.5, extractionId: null },
  ],
};

function run(store: Partial<BundleStore>, lifecycle: Partial<JobLifecycle> = {}) {
  const forModel = vi.fn(() => Promise.reject(new Error('no model call expected')));
  const steps = splitRun({
    lifecycle: lifecycle as JobLifecycle,
    models: { forModel } as unknown as ModelAccess,
    sources: {} as SourcePreparer,
    prices: DEFAULT_PRICES,
    bundles: {
      store: store as BundleStore,
      blobs: {} as BlobStore,
      classifyPages: 40,
      maxUploadBytes: 1,
    },
  });
  return { steps, forModel };
}

describe('the split step', () => {
  it('splits nothing again once the documents are recorded: it only makes sure the children have jobs', async () => {
    const enqueue = vi.fn(() => Promise.resolve());
    const { steps, forModel } = run({ enqueue });
    const row = claimedRow({ split, schemaId: null, output: documents });
    const next = await steps.split(row, split, log, new AbortController().signal);
    expect(next).toEqual({ next: 'await-children' });
    expect(forModel).not.toHaveBeenCalled();
    expect(enqueue).toHaveBeenCalledWith([
      { id: 'child-1', accountId: row.accountId, requestId: row.requestId },
    ]);
  });
});

describe('the await-children step', () => {
  const parent = claimedRow({ split, schemaId: null, output: documents });

  it('waits, holding no slot, while a child is unfinished, giving a pending one its job', async () => {
    const enqueue = vi.fn(() => Promise.resolve());
    const recordProgress = vi.fn(() => Promise.resolve(true));
    const pending = {
      id: 'child-1',
      status: 'pending',
      accountId: 'a',
      requestId: null,
      pages: { from: 1, to: 2, of: 3 },
    };
    const { steps } = run(
      {
        parent: () => Promise.resolve(parent),
        unfinished: () => Promise.resolve([pending]) as never,
        enqueue,
      },
      { recordProgress },
    );
    await expect(steps.awaitChildren({ extractionId: parent.id })).rejects.toBeInstanceOf(
      ChildrenWait,
    );
    expect(enqueue).toHaveBeenCalledWith([pending]);
    // Page 3 is `other`, done; pages 1–2 wait for their child.
    expect(recordProgress).toHaveBeenCalledWith(parent.id, { pagesDone: 1, pagesTotal: 3 });
  });

  it('completes the bundle with its documents once every child is final, adding no spend', async () => {
    const complete = vi.fn(() => Promise.resolve(true));
    const { steps } = run(
      { parent: () => Promise.resolve(parent), unfinished: () => Promise.resolve([]) },
      { complete },
    );
    const end = await steps.awaitChildren({ extractionId: parent.id });
    expect(end).toMatchObject({ end: 'finished', status: 'completed' });
    expect(complete).toHaveBeenCalledWith(
      parent.id,
      documents,
      expect.objectContaining({ tokens: 0, costUsd: 0 }),
      { citations: null, warnings: null },
    );
  });

  it('does nothing for a bundle deleted while it waited', async () => {
    const { steps } = run({ parent: () => Promise.resolve(undefined) });
    expect(await steps.awaitChildren({ extractionId: parent.id })).toMatchObject({
      end: 'finished',
      status: 'deleted',
    });
  });
});
