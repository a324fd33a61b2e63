import { describe, expect, it } from 'vitest';
import { collapse, safeUrl, tidy, wrap, wrapLink } from './text.ts';

describe('markdown text helpers', () => {
  it('collapses HTML whitespace and no-break spaces', () => {
    expect(collapse('a \n\t b\u00a0\u00a0c')).toBe('a b c');
  });

  it('tidies runs into trimmed lines, keeping only non-empty ones', () => {
    expect(tidy('  a   b \n\n  c  ')).toBe('a b\nc');
  });

  it('wraps marks inside surrounding spaces and leaves empty text alone', () => {
    expect(wrap(' bold ', '**')).toBe(' **bold** ');
    expect(wrap('   ', '**')).toBe('   ');
    expect(wrapLink(' two\n words ', 'https://e.example/')).toBe(
      ' [two words](https://e.example/) ',
    );
  });

  it('wraps text padded with 100,000 spaces in linear time', () => {
    const pad = ' '.repeat(100_000);
    expect(wrap(`${pad}x${pad}y`, '_')).toBe(`${pad}_x${pad}y_`);
    expect(wrapLink(`${pad}x${pad}`, 'https://e.example/')).toBe(
      `${pad}[x](https://e.example/)${pad}`,
    );
  }, 5_000);

  it('keeps web, mail and phone links only, escaping parentheses and spaces', () => {
    expect(safeUrl('https://e.example/a (b)')).toBe('https://e.example/a%20%28b%29');
    expect(safeUrl('mailto:x@e.example')).toBe('mailto:x@e.example');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl(`https://e.example/${'x'.repeat(2000)}`)).toBeNull();
  });
});
