import { describe, expect, it } from 'vitest';
import type { ContentPart } from '@xt/contract';
import { countPages, pageTracker } from './page-progress.ts';

const page = (unit: number): ContentPart => ({ kind: 'text', text: `page ${unit}`, unit });

describe('page progress', () => {
  it('counts the pages a source was read as, none for typed text', () => {
    expect(countPages([page(1), page(1), page(2), { kind: 'text', text: 'notes' }])).toBe(2);
    expect(countPages([{ kind: 'text', text: 'typed' }])).toBe(0);
  });

  it('counts a page done once every chunk holding part of it has answered', () => {
    // Page 2 is cut across the first two chunks.
    const tracker = pageTracker([[page(1), page(2)], [page(2), page(3)], [page(4)]]);
    expect(tracker.finish(2)).toBe(1);
    expect(tracker.finish(0)).toBe(2);
    expect(tracker.finish(1)).toBe(4);
  });
});
