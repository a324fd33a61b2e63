import { describe, expect, it } from 'vitest';
import type { ClassifiedPage } from '@xt/contract';
import { documentsOf } from './documents.ts';

const page = (
  n: number,
  cls: string,
  startsDocument: boolean,
  confidence = 0.9,
): ClassifiedPage => ({ page: n, class: cls, startsDocument, confidence });

const classes = ['invoice', 'delivery_note', 'contract'];

describe('documentsOf', () => {
  it('starts a document where a page starts one or the class changes, lowest confidence kept', () => {
    const docs = documentsOf(
      [
        page(1, 'invoice', true, 0.95),
        page(2, 'invoice', false, 0.8),
        page(3, 'invoice', true, 0.9),
        page(4, 'delivery_note', false, 0.7),
        page(5, 'contract', true),
      ],
      5,
      classes,
      true,
    );
    expect(docs).toEqual([
      { class: 'invoice', pages: { from: 1, to: 2 }, confidence: 0.8 },
      { class: 'invoice', pages: { from: 3, to: 3 }, confidence: 0.9 },
      { class: 'delivery_note', pages: { from: 4, to: 4 }, confidence: 0.7 },
      { class: 'contract', pages: { from: 5, to: 5 }, confidence: 0.9 },
    ]);
  });

  it('merges chunks answered in any order and covers every page once', () => {
    const docs = documentsOf(
      [
        page(3, 'contract', false),
        page(4, 'contract', false),
        page(1, 'invoice', true),
        page(2, 'invoice', false),
      ],
      4,
      classes,
      true,
    );
    expect(docs.map((d) => [d.class, d.pages.from, d.pages.to])).toEqual([
      ['invoice', 1, 2],
      ['contract', 3, 4],
    ]);
  });

  it('takes a page left out as continuing the document before it, at confidence 0', () => {
    const docs = documentsOf(
      [page(1, 'invoice', true), page(3, 'contract', true)],
      3,
      classes,
      true,
    );
    expect(docs).toEqual([
      { class: 'invoice', pages: { from: 1, to: 2 }, confidence: 0 },
      { class: 'contract', pages: { from: 3, to: 3 }, confidence: 0.9 },
    ]);
  });

  it('reads a class the model made up, or any case of a known one, sensibly', () => {
    const docs = documentsOf(
      [page(1, 'INVOICE', true), page(2, 'memo', true), page(3, 'Contract', true)],
      3,
      classes,
      true,
    );
    expect(docs.map((d) => d.class)).toEqual(['invoice', 'other', 'contract']);
  });

  it('without other, gives pages of no class to the document before them', () => {
    const docs = documentsOf(
      [page(1, 'other', true), page(2, 'invoice', true), page(3, 'other', true)],
      3,
      classes,
      false,
    );
    expect(docs.map((d) => [d.class, d.pages.from, d.pages.to])).toEqual([
      ['invoice', 1, 1],
      ['invoice', 2, 3],
    ]);
  });

  it('ignores pages out of range and repeated ones', () => {
    const docs = documentsOf(
      [page(1, 'invoice', true), page(1, 'contract', true), page(7, 'contract', true)],
      1,
      classes,
      true,
    );
    expect(docs).toEqual([{ class: 'invoice', pages: { from: 1, to: 1 }, confidence: 0.9 }]);
  });
});
