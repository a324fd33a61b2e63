import { describe, expect, it } from 'vitest';
import { carry } from './annotations.ts';
import { appendContinuation } from './continuation.ts';
import { readPartialAnswer } from './partial-answer.ts';

describe('readPartialAnswer', () => {
  const answer = JSON.stringify({
    title: 'T',
    rows: [
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
      { id: 'c', n: 3 },
    ],
    note: 'x',
  });

  it('keeps only the list items the model finished', () => {
    const cut = answer.slice(0, answer.indexOf('"c"') + 2);
    const partial = readPartialAnswer(cut);
    expect(partial.open.map((f) => [f.pointer, f.complete])).toEqual([
      ['', 1],
      ['/rows', 2],
      ['/rows/2', 0],
    ]);
    expect(partial.closeAt(1)).toEqual({
      title: 'T',
      rows: [
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
      ],
    });
  });

  it('does not count a number as finished until a delimiter follows it', () => {
    const cut = '{"rows":[{"n":1},{"n":12';
    expect(readPartialAnswer(cut).open.at(-1)).toMatchObject({ pointer: '/rows/1', complete: 0 });
    expect(readPartialAnswer(cut).closeAt(1)).toEqual({ rows: [{ n: 1 }] });
  });

  it('reads escaped quotes and brackets inside strings as text', () => {
    const cut = '{"rows":["a \\"[x]\\" b","c';
    expect(readPartialAnswer(cut).closeAt(1)).toEqual({ rows: ['a "[x]" b'] });
  });
});

describe('appendContinuation', () => {
  it('appends the rest of the list, drops items repeated at the edge and moves their annotations', () => {
    const kept = { title: 'T', rows: ['a', 'b'] };
    const next = { title: null, rows: ['b', 'c', 'd'], note: 'n' };
    const { merged, moves } = appendContinuation(kept, next, { pointer: '/rows' });
    expect(merged).toEqual({ title: 'T', rows: ['a', 'b', 'c', 'd'], note: 'n' });
    const annotations = carry(
      [
        {
          quotes: new Map([
            ['/title', 'q-T'],
            ['/rows/1', 'q-b'],
          ]),
          probabilities: undefined,
        },
        {
          quotes: new Map([
            ['/rows/0', 'q-b2'],
            ['/rows/2', 'q-d'],
            ['/note', 'q-n'],
          ]),
          probabilities: new Map([['/rows/1', 0.9]]),
        },
      ],
      moves,
    );
    expect(Object.fromEntries(annotations.quotes)).toEqual({
      '/title': 'q-T',
      '/rows/1': 'q-b',
      '/rows/3': 'q-d',
      '/note': 'q-n',
    });
    expect(Object.fromEntries(annotations.probabilities ?? [])).toEqual({ '/rows/2': 0.9 });
  });

  it('continues a root list', () => {
    const { merged } = appendContinuation([1, 2], [3], { pointer: '' });
    expect(merged).toEqual([1, 2, 3]);
  });
});
