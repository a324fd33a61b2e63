import { describe, expect, it } from 'vitest';
import { splitPagesText, splitRequestStructure } from '@xt/contract';
import { asksForSplit, splitAnswer } from './split-answer.ts';

const classes = [
  { name: 'invoice', description: 'A bill asking for payment' },
  { name: 'delivery_note' },
  { name: 'statement', description: 'Account statement of a period' },
];

const answer = (titles: string[]) =>
  splitAnswer(
    splitPagesText({
      classes,
      pages: titles.map((t, i) => ({ page: i + 1, text: `${t}\nsome body text` })),
    }),
  ).bundlePages.map((p) => [p.page, p.class, p.startsDocument, p.confidence]);

describe('the stand-in classifying a bundle', () => {
  it('recognises the call by its key', () => {
    expect(asksForSplit(splitRequestStructure(['invoice']))).toBe(true);
    expect(asksForSplit({ type: 'object', properties: { total: {} } })).toBe(false);
  });

  it('classifies each page by its title', () => {
    expect(
      answer([
        'INVOICE',
        'Terms and conditions',
        'Delivery note DN-7',
        'Statement page 1 of 2',
        'Statement page 2 of 2',
        'INVOICE continued',
      ]),
    ).toEqual([
      [1, 'invoice', true, 0.95],
      [2, 'invoice', false, 0.8],
      [3, 'delivery_note', true, 0.95],
      [4, 'statement', true, 0.95],
      [5, 'statement', false, 0.95],
      [6, 'invoice', true, 0.95],
    ]);
  });

  it('answers other for a first page naming no class, and continues a chunk that starts mid-document', () => {
    expect(answer(['Cover letter', 'INVOICE'])).toEqual([
      [1, 'other', true, 0.5],
      [2, 'invoice', true, 0.95],
    ]);
    expect(answer(['Statement page 3 of 4'])).toEqual([[1, 'statement', false, 0.95]]);
  });

  it("takes a description's first word as a whole word only", () => {
    // "Account" is the statement's description's first word; "A" (the invoice's) matches no word here.
    expect(answer(['Account summary'])).toEqual([[1, 'statement', true, 0.95]]);
  });
});
