import { describe, expect, it } from 'vitest';
import { planWindows } from './plan.ts';

describe('planWindows', () => {
  it('leaves a document that fits in one window whole', () => {
    expect(planWindows(40, 40)).toEqual([]);
    expect(planWindows(1, 40)).toEqual([]);
    expect(planWindows(0, 40)).toEqual([]);
  });

  it('covers every page once, in order, in windows of at most SPLIT_PAGES', () => {
    for (const [pages, size] of [
      [41, 40],
      [100, 40],
      [240, 40],
      [1000, 40],
      [7, 2],
      [101, 10],
    ] as const) {
      const windows = planWindows(pages, size);
      expect(windows.length).toBe(Math.ceil(pages / size));
      let next = 1;
      windows.forEach((w, i) => {
        expect(w.index).toBe(i);
        expect(w.firstPage).toBe(next);
        expect(w.lastPage).toBeGreaterThanOrEqual(w.firstPage);
        expect(w.lastPage - w.firstPage + 1).toBeLessThanOrEqual(size);
        next = w.lastPage + 1;
      });
      expect(next).toBe(pages + 1);
    }
  });

  it('makes the windows even rather than leaving a short last one', () => {
    expect(planWindows(100, 40)).toEqual([
      { index: 0, firstPage: 1, lastPage: 34 },
      { index: 1, firstPage: 35, lastPage: 67 },
      { index: 2, firstPage: 68, lastPage: 100 },
    ]);
  });
});
