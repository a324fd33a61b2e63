import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexSource, locateValue } from './index.ts';
import { normalise } from './text/normalise.ts';

// Characters that exercise every rule: letters with case and accents, digits, separators,
// hyphens, line breaks, other whitespace, a ligature and an astral character.
const tricky = fc.constantFrom(...'aAbBéÉzZ019-‐\u00ad ,.\n\t\u00a0ﬁ'.split(''), '𝒳');
const trickyText = fc.array(tricky, { maxLength: 80 }).map((cs) => cs.join(''));

describe('properties', () => {
  it('normalisation maps every character back into the original, in order', () => {
    fc.assert(
      fc.property(trickyText, (text) => {
        const { text: norm, starts, ends } = normalise(text);
        expect(starts.length).toBe(norm.length);
        for (let k = 0; k < norm.length; k++) {
          expect(starts[k]).toBeLessThan(ends[k]!);
          expect(ends[k]).toBeLessThanOrEqual(text.length);
          if (k > 0) expect(starts[k]).toBeGreaterThanOrEqual(starts[k - 1]!);
        }
      }),
    );
  });

  it('a located quote is always the source’s own text at its offsets', () => {
    fc.assert(
      fc.property(trickyText, trickyText, fc.option(trickyText), (content, value, quote) => {
        const located = locateValue(value, { kind: 'text', content }, quote);
        if (located) {
          expect(content.slice(located.start!, located.end!)).toBe(located.quote);
          expect(located.quote.length).toBeLessThanOrEqual(500);
          if (located.how === 'exact') expect(located.quote).toBe(value);
        }
      }),
    );
  });

  it('finds any run of words again whatever its case and spacing', () => {
    const word = fc.stringMatching(/^[a-zA-Zé]{1,8}$/);
    const space = fc.constantFrom(' ', '  ', '\n', '\t', ' \n ', '\u00a0');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, space), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        (parts, a, b) => {
          const content = parts.map(([w, s]) => w + s).join('');
          const from = a % parts.length;
          const to = from + 1 + (b % (parts.length - from));
          const value = parts
            .slice(from, to)
            .map(([w]) => w.toUpperCase())
            .join(' ');
          const located = locateValue(value, { kind: 'text', content });
          expect(located).not.toBeNull();
          expect(normalise(located!.quote).text).toBe(normalise(value).text);
        },
      ),
    );
  });

  it('finds a number in any of the usual written forms', () => {
    const group = (int: string, sep: string) => {
      const head = int.length % 3 || 3;
      const rest = int.slice(head).match(/\d{3}/g) ?? [];
      return [int.slice(0, head), ...rest].join(sep);
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), fc.nat(5), (cents, style) => {
        const value = cents / 100;
        const [int, frac] = (cents / 100).toFixed(2).split('.') as [string, string];
        const written = [
          `${group(int, ',')}.${frac}`,
          `${group(int, '.')},${frac}`,
          `${group(int, ' ')},${frac}`,
          `${int}.${frac}`,
          `€${group(int, ',')}.${frac}`,
          `${group(int, "'")}.${frac} CHF`,
        ][style]!;
        const index = indexSource({ kind: 'text', content: `Amount due: ${written} (see terms)` });
        const located = locateValue(value, index);
        expect(located, written).not.toBeNull();
        expect(written).toContain(located!.quote);
      }),
    );
  });

  it('never grounds a figure absent from the source', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 999_999 }), (n) => {
        const content = `Total ${(n + 1).toLocaleString('en-US')}.00, tax ${(n - 1).toLocaleString('de-DE')},00`;
        expect(locateValue(n, { kind: 'text', content })).toBeNull();
      }),
    );
  });
});

describe('hostile sources', () => {
  // Inputs shaped to make a backtracking or quadratic reader stall; the figures for their cost
  // are in the benchmark (groundingThroughput), here they must simply read right.
  const garbage: [string, string][] = [
    ['hyphens and line breaks', 'a-\n'.repeat(50_000)],
    ['one long grouped number', '1,'.repeat(50_000)],
    ['spaced digits', '1 '.repeat(50_000)],
    ['date-like runs', '1/1/'.repeat(25_000)],
    ['one repeated word', 'the '.repeat(25_000)],
    ['a whitespace run', ' '.repeat(100_000) + '-' + ' '.repeat(100_000)],
  ];
  it.each(garbage)('%s: the real values after it are still found', (_, junk) => {
    const content = `${junk}\nInvoice 4471 dated 5 March 2024, total 1,234.50, the end`;
    const index = indexSource({ kind: 'text', content });
    expect(locateValue(1234.5, index)?.quote).toBe('1,234.50');
    expect(locateValue('2024-03-05', index)?.quote).toBe('5 March 2024');
    expect(locateValue('the end', index)?.start).toBe(content.lastIndexOf('the end'));
    expect(locateValue(true, index, 'Invoice 4471 dated 5 Mrach 2024')?.how).toBe('quote');
    expect(locateValue('Globex', index, 'Billed to Globex Corporation')).toBeNull();
  });
});
