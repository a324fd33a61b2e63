import type { Structure } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import type { Annotations } from './annotations.ts';
import { mergeAnswers } from './merge-answers.ts';

const structure: Structure = {
  type: 'object',
  properties: {
    holder: { type: 'string', required: true },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        properties: { date: { type: 'string' }, amount: { type: 'number' } },
      },
    },
  },
};

const quotes = (entries: [string, string][]): Annotations => ({
  quotes: new Map(entries),
  probabilities: undefined,
});

describe('mergeAnswers: the page windows of one document', () => {
  it('keeps rows in window order, joins a row cut at a window edge once, and carries quotes', () => {
    const merged = mergeAnswers(structure, [
      {
        output: {
          holder: 'Ada',
          rows: [
            { date: '01-01', amount: 1 },
            { date: '01-02', amount: null },
          ],
        },
        annotations: quotes([
          ['/holder', 'Holder: Ada'],
          ['/rows/1/date', '01-02'],
        ]),
        truncated: [],
      },
      {
        output: {
          holder: null,
          rows: [
            { date: null, amount: 2 },
            { date: '01-03', amount: 3 },
          ],
        },
        annotations: quotes([
          ['/rows/0/amount', '2.00'],
          ['/rows/1/amount', '3.00'],
        ]),
        truncated: [],
      },
    ]);
    expect(merged.output).toEqual({
      holder: 'Ada',
      rows: [
        { date: '01-01', amount: 1 },
        { date: '01-02', amount: 2 },
        { date: '01-03', amount: 3 },
      ],
    });
    expect(Object.fromEntries(merged.annotations.quotes)).toEqual({
      '/holder': 'Holder: Ada',
      '/rows/1/date': '01-02',
      '/rows/1/amount': '2.00',
      '/rows/2/amount': '3.00',
    });
  });

  it('a required value given by a later window only still satisfies the structure', () => {
    const merged = mergeAnswers(structure, [
      { output: { holder: null, rows: [] }, annotations: quotes([]), truncated: [] },
      {
        output: { holder: 'Bo', rows: [{ date: 'x', amount: 1 }] },
        annotations: quotes([]),
        truncated: [],
      },
    ]);
    expect(merged.output).toEqual({ holder: 'Bo', rows: [{ date: 'x', amount: 1 }] });
  });

  it('fails OUTPUT_INVALID when no window gave a required value', () => {
    expect(() =>
      mergeAnswers(structure, [
        { output: { holder: null, rows: [] }, annotations: quotes([]), truncated: [] },
        { output: null, annotations: quotes([]), truncated: [] },
      ]),
    ).toThrow(expect.objectContaining({ code: 'OUTPUT_INVALID' }));
  });

  it('reports a list any window left unfinished, once', () => {
    const merged = mergeAnswers(structure, [
      { output: { holder: 'A', rows: [] }, annotations: quotes([]), truncated: ['/rows'] },
      { output: { holder: null, rows: [] }, annotations: quotes([]), truncated: ['/rows'] },
    ]);
    expect(merged.truncated).toEqual(['/rows']);
  });
});
