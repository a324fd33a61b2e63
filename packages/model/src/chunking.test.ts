import type { ContentPart } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { chunkParts } from './chunking.ts';

// one token per character keeps the arithmetic of these tests obvious
const chars = (part: ContentPart): number => (part.kind === 'text' ? part.text.length : 500);

const text = (t: string, unit?: number): ContentPart =>
  unit === undefined ? { kind: 'text', text: t } : { kind: 'text', text: t, unit };

function texts(chunks: ContentPart[][]): string[][] {
  return chunks.map((c) => c.map((p) => (p.kind === 'text' ? p.text : `<image ${p.unit ?? ''}>`)));
}

describe('chunkParts', () => {
  it('keeps everything in one chunk when it fits', () => {
    const parts = [text('aaaa', 1), text('bbbb', 2)];
    expect(chunkParts(parts, 100, chars)).toEqual([parts]);
  });

  it('cuts between units and keeps the parts of one unit together', () => {
    const parts: ContentPart[] = [
      text('a'.repeat(40), 1),
      text('b'.repeat(40), 2),
      text('c'.repeat(40), 2),
      text('d'.repeat(40), 3),
    ];
    expect(texts(chunkParts(parts, 100, chars))).toEqual([
      ['a'.repeat(40)],
      ['b'.repeat(40), 'c'.repeat(40)],
      ['d'.repeat(40)],
    ]);
  });

  it('cuts a unit too large for one chunk between its parts', () => {
    const image: ContentPart = { kind: 'image', dataUrl: 'data:,', width: 1, height: 1, unit: 1 };
    const parts: ContentPart[] = [image, text('x'.repeat(60), 1), text('y'.repeat(60), 1)];
    const chunks = chunkParts(parts, 600, chars);
    expect(texts(chunks)).toEqual([['<image 1>', 'x'.repeat(60)], ['y'.repeat(60)]]);
  });

  it('cuts an oversized text at paragraph boundaries, keeping its unit', () => {
    const paragraphs = ['p1 '.repeat(10).trim(), 'p2 '.repeat(10).trim(), 'p3 '.repeat(10).trim()];
    const chunks = chunkParts([text(paragraphs.join('\n\n'), 4)], 70, chars);
    expect(texts(chunks)).toEqual([[`${paragraphs[0]}\n\n${paragraphs[1]}`], [paragraphs[2]]]);
    expect(chunks.flat().every((p) => p.unit === 4)).toBe(true);
  });

  it('falls back to lines, sentences and characters, never losing text', () => {
    const sentence = 'Word word word. '.repeat(20);
    const blob = `${sentence}\n${'z'.repeat(250)}`;
    const chunks = chunkParts([text(blob)], 50, chars);
    for (const part of chunks.flat()) expect(chars(part)).toBeLessThanOrEqual(50);
    const joined = chunks
      .flat()
      .map((p) => (p.kind === 'text' ? p.text : ''))
      .join('');
    expect(joined.replace(/\s/g, '')).toBe(blob.replace(/\s/g, ''));
  });

  it('gives an image larger than the budget a chunk of its own', () => {
    const image: ContentPart = { kind: 'image', dataUrl: 'data:,', width: 1, height: 1, unit: 2 };
    const chunks = chunkParts([text('a', 1), image, text('b', 3)], 100, chars);
    expect(texts(chunks)).toEqual([['a'], ['<image 2>'], ['b']]);
  });
});
