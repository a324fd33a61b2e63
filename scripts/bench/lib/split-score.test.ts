import { describe, expect, it } from 'vitest';
import {
  addCounts,
  NO_COUNTS,
  scoreSplit,
  splitFigures,
  type SplitDocument,
} from './split-score.ts';

const doc = (cls: string, from: number, to: number): SplitDocument => ({
  class: cls,
  pages: { from, to },
});

// A hand-made bundle: invoice p1, statement p2–4, invoice p5, invoice p6.
const truth = [
  doc('invoice', 1, 1),
  doc('statement', 2, 4),
  doc('invoice', 5, 5),
  doc('invoice', 6, 6),
];

describe('split scoring', () => {
  it('scores a perfect split as all right', () => {
    const c = scoreSplit(truth, truth);
    expect(c).toEqual({
      trueBoundaries: 3,
      predictedBoundaries: 3,
      foundBoundaries: 3,
      documents: 4,
      classRight: 4,
      exact: 4,
    });
    expect(splitFigures(c)).toEqual({
      precision: 1,
      recall: 1,
      classAccuracy: 1,
      exactDocuments: 1,
    });
  });

  it('counts a missed start, a false start and a wrong class apart', () => {
    // The two last invoices merged (start at 6 missed), the statement cut at page 3 (a false
    // start), and the first page called "other".
    const predicted = [
      doc('other', 1, 1),
      doc('statement', 2, 2),
      doc('statement', 3, 4),
      doc('invoice', 5, 6),
    ];
    const c = scoreSplit(truth, predicted);
    expect(c.trueBoundaries).toBe(3);
    expect(c.predictedBoundaries).toBe(3); // 2, 3, 5
    expect(c.foundBoundaries).toBe(2); // 2 and 5
    // invoice@1 → other (wrong); statement@2 → statement; invoice@5 and invoice@6 → invoice
    expect(c.classRight).toBe(3);
    expect(c.exact).toBe(0);
    const f = splitFigures(c);
    expect(f.precision).toBeCloseTo(2 / 3);
    expect(f.recall).toBeCloseTo(2 / 3);
    expect(f.classAccuracy).toBeCloseTo(3 / 4);
  });

  it('does not count page 1, so a split that found nothing has recall 0', () => {
    const c = scoreSplit(truth, [doc('invoice', 1, 6)]);
    expect(c.foundBoundaries).toBe(0);
    expect(splitFigures(c).recall).toBe(0);
    expect(splitFigures(c).precision).toBe(1);
    // A failed split (no documents) finds nothing and puts no document in any class.
    const failed = scoreSplit(truth);
    expect(failed.classRight).toBe(0);
    expect(splitFigures(failed).recall).toBe(0);
  });

  it('sums bundles before dividing (micro-averaged)', () => {
    const a = scoreSplit(truth, truth); // 3 of 3
    const b = scoreSplit([doc('invoice', 1, 1), doc('invoice', 2, 2)], [doc('invoice', 1, 2)]); // 0 of 1
    const sum = addCounts(addCounts(NO_COUNTS, a), b);
    expect(splitFigures(sum).recall).toBeCloseTo(3 / 4);
    expect(splitFigures(sum).precision).toBe(1);
  });
});
