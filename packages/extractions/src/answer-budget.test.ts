import { expect, it } from 'vitest';
import { enqueueBudgetMs } from './answer-budget.ts';

it('gives the enqueue what is left of 2 s after the wait so far and the reserve', () => {
  // Arrived just now: 2 s less the reserve for answering.
  expect(enqueueBudgetMs(1_000, 1_000)).toBe(1_700);
  // The rate limiter waited out its 1 s timeout first.
  expect(enqueueBudgetMs(1_000, 2_010)).toBe(690);
  // Arrived late in its budget: a healthy Redis still gets a moment.
  expect(enqueueBudgetMs(1_000, 4_000)).toBe(250);
});
