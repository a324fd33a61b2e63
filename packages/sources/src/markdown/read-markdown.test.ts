import { describe, expect, it } from 'vitest';
import { ExtractionFailure } from '@xt/contract';
import { frontMatterMeta, prepareMarkdownBytes, splitFrontMatter } from './read-markdown.ts';

const page = `---
title: Invoice INV-42
date: 2024-03-05
amount: 1250.5
paid: false
tags: [services, march]
vendor:
  name: Acme
draft: null
---
# Invoice INV-42

| Item    | Amount  |
| ------- | ------- |
| Support | 1250.50 |
`;

const textOf = (prepared: ReturnType<typeof prepareMarkdownBytes>) =>
  prepared.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n\n');

describe('prepareMarkdownBytes', () => {
  it('reads the front matter as metadata and the body as written, headings and tables kept', () => {
    const prepared = prepareMarkdownBytes(Buffer.from(page));
    expect(prepared.meta).toEqual({
      title: 'Invoice INV-42',
      // YAML 1.2's core schema: a date stays as it was written.
      date: '2024-03-05',
      amount: '1250.5',
      paid: 'false',
      tags: 'services, march',
      vendor: '{"name":"Acme"}',
    });
    expect(textOf(prepared)).toBe(page.slice(page.indexOf('# Invoice')));
    expect(prepared.grounding).toBeUndefined();
  });

  it('locates values by offsets into the whole file, front matter included', () => {
    const prepared = prepareMarkdownBytes(Buffer.from(`\uFEFF${page}`), true);
    // The byte-order mark is not text, as for an uploaded text file.
    expect(prepared.grounding).toEqual({ kind: 'text', content: page });
  });

  it('reads a file whose front matter is not a YAML mapping whole, as text, without metadata', () => {
    for (const yaml of ['title: [unclosed\n', 'title: a\ntitle: b\n', '- a list\n', 'prose\n']) {
      const file = `---\n${yaml}---\nTotal: 3\n`;
      const prepared = prepareMarkdownBytes(Buffer.from(file));
      expect(prepared.meta, yaml).toBeUndefined();
      expect(textOf(prepared), yaml).toBe(file);
    }
  });

  it('reads a file without front matter as text', () => {
    const prepared = prepareMarkdownBytes(Buffer.from('# Notes\n\n---\n\nafter a rule\n'));
    expect(prepared.meta).toBeUndefined();
    expect(textOf(prepared)).toBe('# Notes\n\n---\n\nafter a rule\n');
  });

  it('refuses a file that is not UTF-8', () => {
    expect(() => prepareMarkdownBytes(Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff]))).toThrow(
      ExtractionFailure,
    );
  });
});

describe('splitFrontMatter', () => {
  it("ends the block at a `---` or `...` line, CRLF or not, and at the file's end", () => {
    expect(splitFrontMatter('---\r\na: 1\r\n---\r\nbody')).toEqual({
      yaml: 'a: 1\r\n',
      body: 'body',
    });
    expect(splitFrontMatter('---\na: 1\n...\nbody')).toEqual({ yaml: 'a: 1\n', body: 'body' });
    expect(splitFrontMatter('---\na: 1\n---')).toEqual({ yaml: 'a: 1\n', body: '' });
    expect(splitFrontMatter('---\n---\nbody')).toEqual({ yaml: '', body: 'body' });
    expect(splitFrontMatter('---\na: 1\nnever closed')).toBeUndefined();
    expect(splitFrontMatter('text\n---\na: 1\n---\n')).toBeUndefined();
  });
});

describe('frontMatterMeta', () => {
  it('takes an empty block for no metadata, and bounds aliases (no expansion bomb)', () => {
    expect(frontMatterMeta('')).toEqual({});
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from({ length: 12 }, (_, i) => {
        const prev = i === 0 ? 'a' : `l${i - 1}`;
        return `l${i}: &l${i} [${Array(10).fill(`*${prev}`).join(', ')}]`;
      }),
    ].join('\n');
    expect(frontMatterMeta(bomb)).toBeNull();
  });
});
