import { describe, expect, it } from 'vitest';
import { scalarsMatch } from './normalise.ts';
import { scoreOutput } from './score.ts';

const matched = (expected: unknown, actual: unknown) =>
  scoreOutput(expected, actual).leaves.filter((l) => l.matched).length;

describe('scalars', () => {
  it('match strings whatever their case and whitespace', () => {
    expect(scalarsMatch('Acme  GmbH', ' acme gmbh\n')).toBe(true);
    expect(scalarsMatch('Acme GmbH', 'Acme AG')).toBe(false);
  });

  it('match numbers by value, numeric text included', () => {
    expect(scalarsMatch(1234.5, 1234.5)).toBe(true);
    expect(scalarsMatch(1234.5, '1,234.50')).toBe(true);
    expect(scalarsMatch(0.1 + 0.2, 0.3)).toBe(true);
    expect(scalarsMatch(12, 12.01)).toBe(false);
    expect(scalarsMatch(12, '12 EUR')).toBe(false);
    expect(scalarsMatch('12.50', 12.5)).toBe(true);
  });

  it('match dates by value in their unambiguous written forms', () => {
    expect(scalarsMatch('2026-03-14', '14 March 2026')).toBe(true);
    expect(scalarsMatch('2026-03-14', 'Mar 14, 2026')).toBe(true);
    expect(scalarsMatch('2026-03-14', '2026-03-15')).toBe(false);
    expect(scalarsMatch('2026-03-14T10:00:00Z', '2026-03-14T11:00:00+01:00')).toBe(true);
    expect(scalarsMatch('2026-02-30', '2 March 2026')).toBe(false);
  });

  it('match null only with null or nothing', () => {
    expect(scalarsMatch(null, null)).toBe(true);
    expect(scalarsMatch(null, undefined)).toBe(true);
    expect(scalarsMatch(null, '')).toBe(false);
    expect(scalarsMatch(null, 0)).toBe(false);
    expect(scalarsMatch('', null)).toBe(false);
  });

  it('keep booleans apart from everything else', () => {
    expect(scalarsMatch(true, true)).toBe(true);
    expect(scalarsMatch(true, 'true')).toBe(false);
    expect(scalarsMatch(false, null)).toBe(false);
  });
});

describe('scoreOutput', () => {
  it('counts every expected leaf once, nested ones included, and ignores extra keys', () => {
    const expected = { number: 'INV-1', vendor: { name: 'Acme', vat: null }, total: 10 };
    const actual = { number: 'inv-1', vendor: { name: 'Acme', vat: 'DE1' }, total: 10, x: 1 };
    const score = scoreOutput(expected, actual);
    expect(score.leaves.map((l) => [l.path, l.matched])).toEqual([
      ['/number', true],
      ['/vendor/name', true],
      ['/vendor/vat', false],
      ['/total', true],
    ]);
  });

  it('an object where a scalar was expected, or the reverse, misses', () => {
    expect(matched({ a: 'x' }, { a: { b: 'x' } })).toBe(0);
    const score = scoreOutput({ a: { b: 1, c: 2 } }, { a: 'b' });
    expect(score.leaves).toHaveLength(2);
    expect(score.leaves.every((l) => !l.matched)).toBe(true);
  });

  it('aligns array items by best match, not by position', () => {
    const expected = {
      lines: [
        { sku: 'A', qty: 1, amount: 10 },
        { sku: 'B', qty: 2, amount: 20 },
        { sku: 'C', qty: 3, amount: 30 },
      ],
    };
    const actual = {
      lines: [
        { sku: 'C', qty: 3, amount: 30 },
        { sku: 'A', qty: 1, amount: 10 },
        { sku: 'B', qty: 2, amount: 21 },
      ],
    };
    const score = scoreOutput(expected, actual);
    expect(score.leaves.filter((l) => !l.matched)).toEqual([
      {
        path: '/lines/1/amount',
        pattern: '/lines/*/amount',
        expected: 20,
        actual: 21,
        matched: false,
      },
    ]);
    expect(score.arrays).toEqual([
      { path: '/lines', pattern: '/lines', expected: 3, actual: 3, found: 3 },
    ]);
    expect(score.extras).toEqual([]);
  });

  it('prefers the assignment that agrees on the most leaves over a greedy first choice', () => {
    // Greedy would pair expected 0 with actual 0 (2 of 3) and leave expected 1 with actual 1
    // (0 of 3): 2 leaves. The best assignment pairs crosswise: 2 + 3 = 5 leaves.
    const expected = [
      { a: 1, b: 2, c: 3 },
      { a: 1, b: 2, c: 4 },
    ];
    const actual = [
      { a: 1, b: 2, c: 4 },
      { a: 1, b: 9, c: 3 },
    ];
    expect(matched(expected, actual)).toBe(5);
  });

  it('counts missing items as missed leaves and extra items against precision', () => {
    const expected = {
      lines: [
        { sku: 'A', amount: 1 },
        { sku: 'B', amount: 2 },
      ],
    };
    const actual = {
      lines: [
        { sku: 'B', amount: 2 },
        { sku: 'Z', amount: 99 },
        { sku: 'Y', amount: 98 },
      ],
    };
    const score = scoreOutput(expected, actual);
    expect(matched(expected, actual)).toBe(2);
    expect(score.leaves.filter((l) => !l.matched).map((l) => [l.path, l.actual])).toEqual([
      ['/lines/0/sku', undefined],
      ['/lines/0/amount', undefined],
    ]);
    expect(score.arrays[0]).toMatchObject({ expected: 2, actual: 3, found: 1 });
    expect(score.extras.map((e) => e.path).sort()).toEqual(['/lines/1', '/lines/2']);
  });

  it('finds an item only when it agrees on at least half of its leaves', () => {
    const expected = [{ a: 1, b: 2, c: 3, d: 4 }];
    expect(scoreOutput(expected, [{ a: 1, b: 2, c: 0, d: 0 }]).arrays[0]?.found).toBe(1);
    expect(scoreOutput(expected, [{ a: 1, b: 0, c: 0, d: 0 }]).arrays[0]?.found).toBe(0);
  });

  it('aligns arrays of scalars as multisets', () => {
    expect(matched({ tags: ['x', 'y', 'y'] }, { tags: ['Y', 'x', 'z'] })).toBe(2);
  });

  it('treats a missing array as every item missed and an absent output as nothing matched', () => {
    expect(matched({ lines: [{ a: 1 }, { a: 2 }] }, {})).toBe(0);
    const score = scoreOutput({ a: 1, b: null }, undefined);
    expect(score.leaves.map((l) => l.matched)).toEqual([false, true]);
  });

  it('scores an array root and escapes keys holding slashes', () => {
    const score = scoreOutput([{ 'a/b': 1 }], [{ 'a/b': 1 }]);
    expect(score.leaves[0]).toMatchObject({ path: '/0/a~1b', pattern: '/*/a~1b', matched: true });
  });

  it('pairs a long table that came back whole without the cubic assignment', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ n: i, text: `row ${i}` }));
    const shuffled = [...rows].reverse();
    shuffled[5] = { n: 1994, text: 'wrong' };
    const score = scoreOutput({ rows }, { rows: shuffled });
    expect(score.leaves.filter((l) => !l.matched).map((l) => l.path)).toEqual(['/rows/1994/text']);
  });
});
