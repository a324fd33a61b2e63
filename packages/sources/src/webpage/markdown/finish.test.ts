import { describe, expect, it } from 'vitest';
import {
  documentHeader,
  dropRepeatedBlocks,
  nonWhitespaceChars,
  splitBlocks,
  splitSections,
} from './finish.ts';

describe('markdown finishing', () => {
  it('drops blocks repeated three or more times but keeps table rows and code', () => {
    const share = 'Share: [X](https://x.example/share)';
    const table = '| a | b |\n| --- | --- |\n| 1 | 2 |';
    const blocks = [
      'Intro',
      share,
      'One',
      share,
      'Two',
      share,
      table,
      table,
      table,
      'Twice',
      'Twice',
    ];
    expect(dropRepeatedBlocks(blocks)).toEqual([
      'Intro',
      share,
      'One',
      'Two',
      table,
      table,
      table,
      'Twice',
      'Twice',
    ]);
  });

  it('splits on blank lines and trims trailing spaces', () => {
    expect(splitBlocks('a  \nb\n\n\n\nc\n\n   \n\nd')).toEqual(['a\nb', 'c', 'd']);
    expect(splitBlocks('a \t \nb\t')).toEqual(['a\nb']);
  });

  it('trims a line of 200,000 spaces and tabs in linear time', () => {
    // The old `/[ \t]+$/gm` took seconds on a tenth of this: a regression times this test out.
    const run = ' \t'.repeat(100_000);
    expect(splitBlocks(`${run}x${run}\n\nend`)).toEqual([`${run}x`, 'end']);
  }, 5_000);

  it('writes the title and final URL header', () => {
    expect(documentHeader('Report', 'https://e.example/r')).toBe(
      '# Report\nURL: https://e.example/r',
    );
    expect(documentHeader('', 'https://e.example/r')).toBe('URL: https://e.example/r');
  });

  it('starts sections at headings once a section has some substance', () => {
    const para = 'x'.repeat(300);
    const sections = splitSections(
      '# T\nURL: u',
      ['## A', para, para, '## B', para, '### tiny', para, '## C', 'end'],
      {
        minSectionChars: 500,
        maxSectionChars: 5000,
      },
    );
    expect(sections).toHaveLength(3);
    expect(sections[0]?.startsWith('# T\nURL: u\n\n## A')).toBe(true);
    expect(sections[1]?.startsWith('## B')).toBe(true);
    expect(sections[1]).toContain('### tiny');
    expect(sections[2]).toBe('## C\n\nend');
  });

  it('cuts oversized blocks at line boundaries and repeats table headers', () => {
    const rows = Array.from({ length: 100 }, (_, i) => `| row ${i} | ${'v'.repeat(20)} |`);
    const table = ['| k | v |', '| --- | --- |', ...rows].join('\n');
    const sections = splitSections('H', [table], { minSectionChars: 10, maxSectionChars: 600 });
    expect(sections.length).toBeGreaterThan(3);
    for (const s of sections.slice(1)) {
      expect(s.length).toBeLessThanOrEqual(600);
      expect(s.startsWith('| k | v |\n| --- | --- |\n| row')).toBe(true);
    }
    const all = sections.join('\n');
    for (let i = 0; i < 100; i++) expect(all).toContain(`| row ${i} |`);
  });

  it('cuts a single enormous line', () => {
    const sections = splitSections('H', ['y'.repeat(2500)], {
      minSectionChars: 10,
      maxSectionChars: 1000,
    });
    expect(sections.slice(1).map((s) => s.length)).toEqual([1000, 1000, 500]);
  });

  it('counts non-whitespace characters', () => {
    expect(nonWhitespaceChars(' a b\n\tc ')).toBe(3);
  });
});
