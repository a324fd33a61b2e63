import { describe, expect, it, vi } from 'vitest';
import type { PreparedSource } from '@xt/contract';
import { claimedRow } from '../../test/claimed-row.ts';
import { reuseContent, reuseStep, type JobReuse } from './reuse-step.ts';

const page: PreparedSource = {
  parts: [{ kind: 'text', text: 'Invoice INV-7. Total due: 12.50 EUR' }],
  meta: { title: 'Invoice', url: 'https://example.com/inv-7' },
};
const urlRow = claimedRow({ sourceType: 'webpage', source: 'https://example.com/inv-7' });
const ORIGINAL = '5b1c7b2e-8f44-4a7c-9a0e-1f2d3c4b5a69';

function fakeReuse(
  found: string | undefined,
  outcome: 'completed' | 'original-gone' = 'completed',
) {
  return {
    pipelineVersion: '0123456789abcdef',
    namespace: '',
    find: vi.fn<JobReuse['find']>(() => Promise.resolve(found)),
    complete: vi.fn<JobReuse['complete']>(() => Promise.resolve(outcome)),
    recordKey: vi.fn<JobReuse['recordKey']>(() => Promise.resolve()),
    evidenceToDraw: vi.fn<JobReuse['evidenceToDraw']>(() => Promise.resolve(null)),
    recordDrawn: vi.fn<JobReuse['recordDrawn']>(() => Promise.resolve(true)),
  };
}

describe('reuseStep', () => {
  it('completes a URL extraction from an earlier answer to the same fetched content', async () => {
    const reuse = fakeReuse(ORIGINAL);
    expect(await reuseStep(reuse, urlRow, page)).toEqual({
      next: 'done',
      outcome: 'completed',
      originalId: ORIGINAL,
    });
    expect(reuse.find).toHaveBeenCalledWith({
      accountId: urlRow.accountId,
      key: expect.any(Buffer),
      maxAgeSeconds: 604_800,
      extractionId: urlRow.id,
    });
    expect(reuse.complete).toHaveBeenCalledWith(urlRow.accountId, urlRow.id, ORIGINAL);
    expect(reuse.recordKey).not.toHaveBeenCalled();
  });

  it('records the key and goes on to the model when there is none, or it was just deleted', async () => {
    for (const reuse of [fakeReuse(undefined), fakeReuse(ORIGINAL, 'original-gone')]) {
      expect(await reuseStep(reuse, urlRow, page)).toEqual({ next: 'extract' });
      expect(reuse.recordKey).toHaveBeenCalledWith(urlRow.id, reuse.find.mock.calls[0]![0].key);
    }
  });

  it('keys the content: another page text gives another key', async () => {
    const a = fakeReuse(undefined);
    const b = fakeReuse(undefined);
    await reuseStep(a, urlRow, page);
    await reuseStep(b, urlRow, { ...page, parts: [{ kind: 'text', text: 'Total due: 13 EUR' }] });
    expect(a.find.mock.calls[0]![0].key).not.toEqual(b.find.mock.calls[0]![0].key);
  });

  it('with cache: false looks nothing up but still records the key', async () => {
    const reuse = fakeReuse(ORIGINAL);
    expect(await reuseStep(reuse, { ...urlRow, cacheMaxAgeSeconds: null }, page)).toEqual({
      next: 'extract',
    });
    expect(reuse.find).not.toHaveBeenCalled();
    expect(reuse.recordKey).toHaveBeenCalledOnce();
  });

  it('leaves typed text and uploads alone: their key was looked up at create', async () => {
    const reuse = fakeReuse(ORIGINAL);
    const upload = claimedRow({
      sourceType: 'pdf',
      file: { name: 'a.pdf', size: 1, contentType: 'application/pdf', sha256: 'a'.repeat(64) },
    });
    for (const row of [claimedRow(), upload])
      expect(await reuseStep(reuse, row, page)).toEqual({ next: 'extract' });
    expect(reuse.find).not.toHaveBeenCalled();
    expect(reuse.recordKey).not.toHaveBeenCalled();
  });

  it('keys a URL worked as page windows by its fetched bytes: its own key, never the one-job key', async () => {
    const pdfRow = claimedRow({ sourceType: 'pdf', source: 'https://example.com/long.pdf' });
    const fetched = {
      kind: 'fetched' as const,
      sha256: 'c'.repeat(64),
      contentType: 'application/pdf',
    };
    const windowed = fakeReuse(undefined);
    expect(await reuseContent(windowed, pdfRow, fetched)).toEqual({ next: 'extract' });
    const key = windowed.find.mock.calls[0]![0].key;
    expect(windowed.recordKey).toHaveBeenCalledWith(pdfRow.id, key);

    const again = fakeReuse(undefined);
    await reuseContent(again, pdfRow, { ...fetched, sha256: 'd'.repeat(64) });
    expect(again.find.mock.calls[0]![0].key).not.toEqual(key);
    const prepared = fakeReuse(undefined);
    await reuseContent(prepared, pdfRow, { kind: 'prepared', sha256: fetched.sha256 });
    expect(prepared.find.mock.calls[0]![0].key).not.toEqual(key);
  });
});
