import { describe, expect, it } from 'vitest';
import { groundingThroughput } from './grounding-throughput.ts';

describe('groundingThroughput', () => {
  it('grounds every planted value of the generated statement and flags every invented one', () => {
    const figures = groundingThroughput({ pages: 6, rows: 120, invented: 10, reps: 1 });
    expect(figures).toMatchObject({
      pages: 6,
      leaves: 120 * 5 + 10 * 2,
      groundedShare: 1,
      inventedFlagged: 1,
    });
    expect(figures.characters).toBeGreaterThan(6 * 50 * 40);
  });
});
