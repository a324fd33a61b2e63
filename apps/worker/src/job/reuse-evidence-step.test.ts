import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { Citations, PreparedSource } from '@xt/contract';
import type { PagePreviews } from '../page-previews/index.ts';
import { reuseEvidenceStep } from './reuse-evidence-step.ts';
import type { JobReuse } from './reuse-step.ts';

const source: PreparedSource = { parts: [{ kind: 'text', text: 'Total due: 12.50 EUR' }] };
const citations: Citations = {
  '/total': {
    grounded: true,
    quote: '12.50',
    page: 1,
    boxes: [[0.1, 0.2, 0.2, 0.22]],
    start: null,
    end: null,
    confidence: 0.9,
  },
};
const silent = pino({ level: 'silent' });

function fakes(toDraw: Citations | null, drawn: Record<string, string> | null) {
  return {
    reuse: {
      evidenceToDraw: vi.fn<JobReuse['evidenceToDraw']>(() => Promise.resolve(toDraw)),
      recordDrawn: vi.fn<JobReuse['recordDrawn']>(() => Promise.resolve(true)),
    },
    previews: vi.fn<PagePreviews>(() => Promise.resolve(drawn)),
  };
}

describe('reuseEvidenceStep', () => {
  it('draws a copy’s previews from the prepared source when it has none to show', async () => {
    const deps = fakes(citations, { '1': 'ref-1' });
    await reuseEvidenceStep(deps, 'copy', source, silent);
    expect(deps.previews).toHaveBeenCalledWith(source, citations);
    expect(deps.reuse.recordDrawn).toHaveBeenCalledWith('copy', { '1': 'ref-1' });
  });

  it('leaves a copy with copied evidence, or nothing cited, as it is', async () => {
    const deps = fakes(null, { '1': 'ref-1' });
    await reuseEvidenceStep(deps, 'copy', source, silent);
    expect(deps.previews).not.toHaveBeenCalled();
    expect(deps.reuse.recordDrawn).not.toHaveBeenCalled();
  });

  it('records nothing when nothing could be drawn, and never fails the completed copy', async () => {
    const none = fakes(citations, null);
    await reuseEvidenceStep(none, 'copy', source, silent);
    expect(none.reuse.recordDrawn).not.toHaveBeenCalled();

    const failing = fakes(citations, null);
    failing.previews.mockRejectedValueOnce(new Error('the prep pool is gone'));
    await expect(reuseEvidenceStep(failing, 'copy', source, silent)).resolves.toBeUndefined();
    expect(failing.reuse.recordDrawn).not.toHaveBeenCalled();
  });
});
