import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paragraphs, prepareText, prepareTextBytes } from './text.ts';

// The pattern the scan replaces, kept here only as the reference it must agree with.
// eslint-disable-next-line regexp/no-super-linear-backtracking, regexp/no-super-linear-move
const reference = (text: string) => text.split(/\n\s*\n(?=\s*\S)/);

describe('text sources', () => {
  it('cuts at blank lines exactly where the old pattern did', () => {
    const piece = fc.constantFrom('\n', ' ', '\t', '\r', '\u00a0', 'a', 'b c', '\n\n', ' \n');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(paragraphs(text)).toEqual(reference(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps trailing blank lines with the last paragraph', () => {
    expect(paragraphs('one\n\n  two\n\n\n')).toEqual(['one', '  two\n\n\n']);
  });

  it('splits a text ending in many blank lines in one pass', () => {
    // 40,000 trailing newlines: the old pattern would take hours; a scan takes milliseconds,
    // so a regression shows as this test timing out.
    const text = `Total: 12\n\nDue: today${'\n'.repeat(40_000)}`;
    const prepared = prepareText(text);
    expect(prepared.parts.map((p) => (p.kind === 'text' ? p.text.slice(0, 3) : ''))).toEqual([
      'Tot',
      'Due',
    ]);
  }, 10_000);
});

describe('a text source kept for citations', () => {
  // Enough of a converter for these inputs: the real one runs on the prep threads.
  const toMarkdown = (html: string) =>
    html.replaceAll('<p>', '').replaceAll('</p>', '').replaceAll('<b>', '').replaceAll('</b>', '');

  it('keeps an uploaded text file as decoded, without its byte-order mark, for offsets', () => {
    const file = Buffer.from('\uFEFFTotal: 12.50 EUR\r\nDue: today', 'utf8');
    for (const type of ['text/plain', 'text/markdown', 'text/csv', 'application/json']) {
      expect(prepareTextBytes(file, type, toMarkdown, true).grounding).toEqual({
        kind: 'text',
        content: 'Total: 12.50 EUR\r\nDue: today',
      });
    }
  });

  it('keeps typed text whole, a leading U+FEFF included, so offsets index the source sent', () => {
    const typed = '\uFEFFTotal: 12.50';
    expect(prepareTextBytes(Buffer.from(typed), null, toMarkdown, true).grounding).toEqual({
      kind: 'text',
      content: typed,
    });
  });

  it('keeps an uploaded HTML file as the Markdown read from it, for quotes only', () => {
    const html = Buffer.from('<p>Total: <b>12.50</b></p>');
    expect(prepareTextBytes(html, 'text/html', toMarkdown, true).grounding).toEqual({
      kind: 'plain',
      text: 'Total: 12.50',
    });
  });

  it('keeps nothing when citations were not asked for', () => {
    expect(
      prepareTextBytes(Buffer.from('Total'), 'text/plain', toMarkdown).grounding,
    ).toBeUndefined();
  });
});
