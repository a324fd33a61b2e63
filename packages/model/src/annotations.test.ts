import { describe, expect, it } from 'vitest';
import { carry, type Annotations } from './annotations.ts';

const annotations = (quotes: Record<string, string>, probabilities?: Record<string, number>) =>
  ({
    quotes: new Map(Object.entries(quotes)),
    probabilities: probabilities && new Map(Object.entries(probabilities)),
  }) satisfies Annotations;

describe('carry', () => {
  it('moves each subtree to where it went, and not its siblings that share a prefix', () => {
    const first = annotations(
      { '/rows/1/a': 'one', '/rows/10/a': 'ten', '/rows/1': 'row one', '/total': 'sum' },
      { '/rows/1/a': 0.9, '/rows/10/a': 0.5 },
    );
    const second = annotations({ '/rows/0/a': 'zero' });
    const carried = carry(
      [first, second],
      [
        { source: 0, from: '/rows/1', to: '/rows/0' },
        { source: 1, from: '/rows/0', to: '/rows/1' },
        { source: 0, from: '/rows/10', to: '/rows/2' },
      ],
    );
    expect([...carried.quotes]).toEqual([
      ['/rows/0/a', 'one'],
      ['/rows/0', 'row one'],
      ['/rows/1/a', 'zero'],
      ['/rows/2/a', 'ten'],
    ]);
    expect([...carried.probabilities!]).toEqual([
      ['/rows/0/a', 0.9],
      ['/rows/2/a', 0.5],
    ]);
  });

  it('moves the whole answer from the root, and keys that hold a slash', () => {
    const carried = carry(
      [annotations({ '': 'all', '/a~1b': 'slash', '/a/b': 'nested' })],
      [{ source: 0, from: '', to: '/parts/3' }],
    );
    expect([...carried.quotes]).toEqual([
      ['/parts/3', 'all'],
      ['/parts/3/a~1b', 'slash'],
      ['/parts/3/a/b', 'nested'],
    ]);
    expect(carried.probabilities).toBeUndefined();
  });

  it('keeps an answer with no moves out, and a move from a missing answer does nothing', () => {
    const carried = carry([annotations({ '/x': 'x' })], [{ source: 3, from: '', to: '' }]);
    expect(carried.quotes.size).toBe(0);
  });
});
