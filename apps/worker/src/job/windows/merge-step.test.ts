import { describe, expect, it } from 'vitest';
import { groundOutput } from '@xt/grounding';
import type { Structure } from '@xt/contract';
import type { ExtractionWindowRow } from '@xt/db';
import { mergeWindowsStep } from './merge-step.ts';
import { annotationsFromJson, annotationsToJson } from './stored-answer.ts';

const structure: Structure = {
  type: 'object',
  properties: {
    holder: { type: 'string', required: true },
    rows: {
      type: 'array',
      items: { type: 'object', properties: { d: { type: 'string' }, a: { type: 'number' } } },
    },
  },
};

const stored = (
  index: number,
  output: unknown,
  extra: Partial<ExtractionWindowRow> = {},
): ExtractionWindowRow => ({
  extractionId: '00000000-0000-4000-8000-000000000000',
  windowIndex: index,
  firstPage: index * 10 + 1,
  lastPage: index * 10 + 10,
  output,
  annotations: { quotes: [], probabilities: null },
  truncated: [],
  grounding: null,
  pageImages: null,
  imagesAsText: null,
  tokens: 100 + index,
  usage: { inputTokens: 90, outputTokens: 10 + index, cachedInputTokens: index },
  calls: 2,
  createdAt: new Date(),
  ...extra,
});

describe('mergeWindowsStep', () => {
  it('merges the windows in page order and sums what they spent', () => {
    const merged = mergeWindowsStep(structure, [
      stored(
        0,
        {
          holder: 'Ada',
          rows: [
            { d: '1', a: 1 },
            { d: '2', a: null },
          ],
        },
        {
          annotations: { quotes: [['/rows/1/d', '2']], probabilities: [['/holder', 0.9]] },
          grounding: [{ page: 10, lines: [{ text: '2', box: [0, 0, 1, 1] }] }],
          pageImages: { '10': 'ref-10' },
        },
      ),
      stored(
        1,
        {
          holder: null,
          rows: [
            { d: null, a: 2 },
            { d: '3', a: 3 },
          ],
        },
        {
          annotations: { quotes: [['/rows/1/a', '3']], probabilities: [['/rows/1/a', 0.8]] },
          grounding: [{ page: 11, lines: [{ text: '2.00', box: [0, 0, 1, 1] }] }],
          pageImages: { '11': 'ref-11' },
        },
      ),
    ]);
    expect(merged.answer.output).toEqual({
      holder: 'Ada',
      rows: [
        { d: '1', a: 1 },
        { d: '2', a: 2 },
        { d: '3', a: 3 },
      ],
    });
    // The second window's row 1 is the document's row 2.
    expect(Object.fromEntries(merged.answer.annotations.quotes)).toEqual({
      '/rows/1/d': '2',
      '/rows/2/a': '3',
    });
    expect(merged.source.grounding).toEqual({
      kind: 'pages',
      pages: [
        { page: 10, lines: [{ text: '2', box: [0, 0, 1, 1] }] },
        { page: 11, lines: [{ text: '2.00', box: [0, 0, 1, 1] }] },
      ],
    });
    expect(merged.pageImages).toEqual({ '10': 'ref-10', '11': 'ref-11' });
    expect(merged.tokens).toBe(201);
    expect(merged.usage).toEqual({ inputTokens: 180, outputTokens: 21, cachedInputTokens: 1 });
    expect(merged.calls).toBe(4);
  });

  it('fails OUTPUT_INVALID carrying what the windows spent when they do not make the structure', () => {
    const failure = (() => {
      try {
        mergeWindowsStep(structure, [stored(0, { holder: null, rows: [] }), stored(1, null)]);
      } catch (err) {
        return err;
      }
    })();
    expect(failure).toMatchObject({ code: 'OUTPUT_INVALID', tokens: 201 });
  });

  it('sums what the windows sent as text in place of images, for the record to warn of', () => {
    const merged = mergeWindowsStep(structure, [
      stored(
        0,
        { holder: 'Ada', lines: [] },
        { imagesAsText: { pages: 10, images: 0, leftOut: 1 } },
      ),
      stored(1, { lines: [] }),
      stored(2, { lines: [] }, { imagesAsText: { pages: 4, images: 2, leftOut: 0 } }),
    ]);
    expect(merged.source.imagesAsText).toEqual({ pages: 14, images: 2, leftOut: 1 });
    expect(groundOutput(merged.answer, merged.source, false).warnings).toEqual([
      expect.objectContaining({ code: 'IMAGES_READ_AS_TEXT' }),
    ]);
    // Windows that sent their images as images say nothing.
    const sent = mergeWindowsStep(structure, [stored(0, { holder: 'Ada', lines: [] })]);
    expect(sent.source.imagesAsText).toBeUndefined();
  });

  it('a source read without citations has no pages to locate values in', () => {
    const merged = mergeWindowsStep(structure, [
      stored(0, { holder: 'A', rows: [] }),
      stored(1, { holder: null, rows: [] }),
    ]);
    expect(merged.source).toEqual({ parts: [] });
    expect(merged.pageImages).toBeNull();
  });
});

describe('a window answer stored as JSON', () => {
  it('keeps quotes and probabilities', () => {
    const annotations = {
      quotes: new Map([['/a', 'x']]),
      probabilities: new Map([['/a', 0.5]]),
    };
    expect(annotationsFromJson(JSON.parse(JSON.stringify(annotationsToJson(annotations))))).toEqual(
      annotations,
    );
    const none = { quotes: new Map<string, string>(), probabilities: undefined };
    expect(annotationsFromJson(annotationsToJson(none))).toEqual(none);
  });
});
