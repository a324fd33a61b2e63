import { describe, expect, it } from 'vitest';
import { linesInReadingOrder, type PlacedText } from './text-layer.ts';

const run = (
  str: string,
  x: number,
  y: number,
  width = str.length * 6,
  size = 12,
  rtl = false,
): PlacedText => ({
  str,
  x,
  y,
  width,
  size,
  rtl,
});

describe('linesInReadingOrder', () => {
  it('orders lines top to bottom and runs left to right, whatever the stream order', () => {
    const lines = linesInReadingOrder([
      run('third', 72, 140),
      run('right', 300, 120),
      run('left', 72, 120),
      run('first', 72, 100),
    ]);
    expect(lines).toEqual(['first', 'left\tright', 'third']);
  });

  it('keeps a superscript on its line and spaces runs that touch only by a gap', () => {
    const lines = linesInReadingOrder([
      run('E = mc', 72, 100, 36),
      run('2', 110, 96, 4, 8),
      run('next', 72, 130),
    ]);
    expect(lines).toEqual(['E = mc 2', 'next']);
  });

  it('joins runs split mid-word without a space and drops empty runs', () => {
    const lines = linesInReadingOrder([
      run('Hel', 72, 100, 18),
      run('lo', 90, 100, 12),
      run('', 0, 100),
      run('  ', 0, 200),
    ]);
    expect(lines).toEqual(['Hello']);
  });

  it('reads right-to-left lines from the right', () => {
    const lines = linesInReadingOrder([
      run('שלום', 72, 100, 24, 12, true),
      run('עולם', 200, 100, 24, 12, true),
    ]);
    expect(lines).toEqual(['עולם\tשלום']);
  });
});
