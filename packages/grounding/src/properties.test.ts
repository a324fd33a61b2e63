import type { GroundingSource } from '@xt/contract';
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

  it('finds a date in any of the usual written forms', () => {
    const months = [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2069-12-31'), noInvalidDate: true }),
        fc.nat(7),
        (date, style) => {
          const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
          const p2 = (n: number) => String(n).padStart(2, '0');
          const name = months[m - 1]!;
          const written = [
            `${d} ${name} ${y}`,
            `${name} ${d}, ${y}`,
            `${d} ${name.slice(0, 3)} ${y}`,
            `${p2(d)}.${p2(m)}.${y}`,
            `${p2(d)}/${p2(m)}/${y}`,
            `${p2(m)}/${p2(d)}/${y}`,
            `${p2(d)}-${name.slice(0, 3)}-${y}`,
            `${d}/${m}/${String(y).slice(2)}`,
          ][style]!;
          const iso = `${y}-${p2(m)}-${p2(d)}`;
          const located = locateValue(iso, {
            kind: 'text',
            content: `Issued on ${written}, payable in 30 days.`,
          });
          expect(located?.quote, written).toBe(written);
        },
      ),
    );
  });

  it('gives boxes inside the boxes of the lines the value is on, on its page', () => {
    const word = fc.stringMatching(/^[a-z]{2,7}$/);
    const line = fc.array(word, { minLength: 1, maxLength: 8 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(
        fc.array(fc.array(line, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (pages, pick) => {
          const source: GroundingSource = {
            kind: 'pages',
            pages: pages.map((lines, p) => ({
              page: p + 1,
              lines: lines.map((text, l) => ({
                text,
                box: [0.1, l * 0.1, 0.9, l * 0.1 + 0.05] as [number, number, number, number],
              })),
            })),
          };
          const all = pages.flatMap((lines, p) => lines.map((text) => ({ text, page: p + 1 })));
          const chosen = all[pick % all.length]!;
          const located = locateValue(chosen.text, source);
          expect(located).not.toBeNull();
          const onPage = pages[located!.page! - 1]!;
          expect(located!.boxes.length).toBeGreaterThan(0);
          for (const [x0, y0, x1, y1] of located!.boxes) {
            expect(x0).toBeGreaterThanOrEqual(0.1 - 1e-9);
            expect(x1).toBeLessThanOrEqual(0.9 + 1e-9);
            expect(x0).toBeLessThan(x1);
            expect(
              onPage.some(
                (_, l) => Math.abs(y0 - l * 0.1) < 1e-9 && Math.abs(y1 - (l * 0.1 + 0.05)) < 1e-9,
              ),
            ).toBe(true);
          }
        },
      ),
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
