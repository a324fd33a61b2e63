import { describe, expect, it, vi } from 'vitest';
import type { PreparedSource } from '@xt/contract';
import { claimedRow } from '../../test/claimed-row.ts';
import {
  deletedWhilePreparing,
  prepareStep,
  RECHECK_AFTER_PREPARING_MS,
  recordFound,
} from './prepare-step.ts';

const prepared: PreparedSource = { parts: [{ kind: 'text', text: 'x' }] };

function fakeSources() {
  return {
    prepare: vi.fn(() => Promise.resolve(prepared)),
    prepareUpload: vi.fn(() => Promise.resolve(prepared)),
  };
}

describe('prepareStep', () => {
  it('reads a typed or URL source from `source`, with the row model and citations', async () => {
    const sources = fakeSources();
    const signal = new AbortController().signal;
    const row = claimedRow({
      sourceType: 'pdf',
      source: 'https://example.com/a.pdf',
      model: 'gpt-4.1-mini',
      citationsRequested: true,
    });
    expect(await prepareStep(sources, row, signal)).toBe(prepared);
    expect(sources.prepare).toHaveBeenCalledWith('pdf', 'https://example.com/a.pdf', {
      model: 'gpt-4.1-mini',
      signal,
      citations: true,
    });
    expect(sources.prepareUpload).not.toHaveBeenCalled();
  });

  it('reads an upload from the blob store by its ref and detected content type', async () => {
    const sources = fakeSources();
    const row = claimedRow({
      sourceType: 'image',
      source: 'photo.png',
      file: { name: 'photo.png', size: 10, contentType: 'image/png', sha256: 'a'.repeat(64) },
      fileRef: '5b1c7b2e-8f44-4a7c-9a0e-1f2d3c4b5a69',
    });
    await prepareStep(sources, row, new AbortController().signal);
    expect(sources.prepareUpload).toHaveBeenCalledWith(
      'image',
      {
        ref: '5b1c7b2e-8f44-4a7c-9a0e-1f2d3c4b5a69',
        contentType: 'image/png',
        sha256: 'a'.repeat(64),
      },
      expect.objectContaining({ model: 'gpt-4.1', citations: false }),
    );
    expect(sources.prepare).not.toHaveBeenCalled();
  });
});

describe('prepareStep for a model that takes no images', () => {
  it('asks the preparer for a reading without images, and for the usual one by default', async () => {
    const sources = fakeSources();
    const signal = new AbortController().signal;
    const row = claimedRow({ sourceType: 'image', source: 'https://e.com/scan.png' });
    await prepareStep(sources, row, signal, undefined, { images: false });
    expect(sources.prepare).toHaveBeenLastCalledWith(
      'image',
      'https://e.com/scan.png',
      expect.objectContaining({ images: false }),
    );
    await prepareStep(sources, row, signal, undefined, {});
    expect(sources.prepare).toHaveBeenLastCalledWith(
      'image',
      'https://e.com/scan.png',
      expect.not.objectContaining({ images: false }),
    );
  });
});

describe('prepareStep with earlier preparations', () => {
  it("hands the job's store to the preparer, for uploads and URLs alike", async () => {
    const sources = fakeSources();
    const preparations = { read: vi.fn(), write: vi.fn() };
    const signal = new AbortController().signal;
    await prepareStep(
      sources,
      claimedRow({ sourceType: 'pdf', source: 'https://e.com/a.pdf' }),
      signal,
      preparations,
    );
    expect(sources.prepare).toHaveBeenCalledWith(
      'pdf',
      'https://e.com/a.pdf',
      expect.objectContaining({ preparations }),
    );
    await prepareStep(sources, claimedRow(), signal);
    expect(sources.prepare).toHaveBeenLastCalledWith(
      'text',
      expect.any(String),
      expect.not.objectContaining({ preparations: expect.anything() }),
    );
  });
});

describe('deletedWhilePreparing', () => {
  it('does not ask after a preparation of moments', async () => {
    const exists = vi.fn(() => Promise.resolve(false));
    expect(await deletedWhilePreparing({ exists }, 'x', RECHECK_AFTER_PREPARING_MS - 1)).toBe(
      false,
    );
    expect(exists).not.toHaveBeenCalled();
  });

  it('asks after a longer one, and says whether the row is gone', async () => {
    expect(
      await deletedWhilePreparing(
        { exists: () => Promise.resolve(false) },
        'x',
        RECHECK_AFTER_PREPARING_MS,
      ),
    ).toBe(true);
    expect(await deletedWhilePreparing({ exists: () => Promise.resolve(true) }, 'x', 10_000)).toBe(
      false,
    );
  });
});

describe('recordFound', () => {
  it('records the kind and format a fetched `auto` source turned out to be', async () => {
    const recordSourceFound = vi.fn(() => Promise.resolve(true));
    const row = claimedRow({ sourceType: 'auto', source: 'https://example.com/q3' });
    const now = await recordFound({ recordSourceFound }, row, {
      ...prepared,
      found: { type: 'pdf', format: 'pdf' },
    });
    expect(recordSourceFound).toHaveBeenCalledWith(row.id, { type: 'pdf', format: 'pdf' });
    expect(now).toMatchObject({ sourceType: 'pdf', format: 'pdf' });
  });

  it('writes nothing when the row already says so, or nothing was found', async () => {
    const recordSourceFound = vi.fn(() => Promise.resolve(true));
    const row = claimedRow({ sourceType: 'pdf', format: 'pdf' });
    expect(
      await recordFound({ recordSourceFound }, row, {
        ...prepared,
        found: { type: 'pdf', format: 'pdf' },
      }),
    ).toBe(row);
    expect(await recordFound({ recordSourceFound }, row, prepared)).toBe(row);
    expect(recordSourceFound).not.toHaveBeenCalled();
  });
});
