import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { splitTypeFor } from './source-type.ts';
import { splitCreate, splitOutcome } from './split.ts';
import type { Extraction } from './types.ts';

const classes = [{ name: 'invoice', schema_id: 's1' }, { name: 'contract' }];

describe('splitCreate', () => {
  it('sends a pdf, image or document by its name, anything else as auto', () => {
    expect(splitCreate({ path: '/in/bundle.PDF' }, { classes }).type).toBe('pdf');
    expect(splitCreate({ data: new Uint8Array(), filename: 'scan.jpg' }, { classes }).type).toBe(
      'image',
    );
    expect(splitCreate('https://example.com/mail/bundle.docx', { classes }).type).toBe('document');
    // A URL without an extension would be a webpage to `extract`; no bundle is one.
    expect(splitCreate('https://example.com/bundle', { classes }).type).toBe('auto');
    expect(splitCreate({ data: new Uint8Array() }, { classes }).type).toBe('auto');
    expect(splitCreate('not a url', { classes }).type).toBe('auto');
    expect(splitTypeFor('mail.eml', false)).toBe('auto');
  });

  it('names no schema_id of its own and sends `other` only when given', () => {
    const create = splitCreate({ path: 'b.pdf' }, { classes, citations: true, type: 'auto' });
    expect(create).toEqual({
      type: 'auto',
      source: { path: 'b.pdf' },
      citations: true,
      split: { classes },
    });
    expect(create).not.toHaveProperty('schemaId');
    expect(splitCreate('https://x.example/b.pdf', { classes, other: false }).split).toEqual({
      classes,
      other: false,
    });
  });
});

describe('splitOutcome', () => {
  const parent = {
    id: 'p',
    split: { classes, other: true },
    result: {
      documents: [
        { class: 'invoice', pages: { from: 1, to: 2 }, confidence: 0.8, extractionId: 'c1' },
        { class: 'contract', pages: { from: 3, to: 3 }, confidence: 0.95, extractionId: null },
        { class: 'invoice', pages: { from: 4, to: 4 }, confidence: 0.95, extractionId: 'c2' },
      ],
    },
  } as unknown as Extraction;

  it("gives each document its extraction's record, in page order, null without one", async () => {
    const read = (id: string) => Promise.resolve({ id, status: 'completed' } as Extraction);
    const outcome = await splitOutcome(parent, read);
    expect(outcome.parent).toBe(parent);
    expect(outcome.documents.map((d) => [d.class, d.extraction?.id ?? null])).toEqual([
      ['invoice', 'c1'],
      ['contract', null],
      ['invoice', 'c2'],
    ]);
    expect(outcome.documents[0]).toMatchObject({ pages: { from: 1, to: 2 }, confidence: 0.8 });
  });

  it('reads a deleted extraction as null, and throws any other failure', async () => {
    const gone = new ApiError(404, { status: false, code: 'NOT_FOUND' });
    const outcome = await splitOutcome(parent, (id) =>
      id === 'c1' ? Promise.reject(gone) : Promise.resolve({ id } as Extraction),
    );
    expect(outcome.documents.map((d) => d.extraction?.id ?? null)).toEqual([null, null, 'c2']);
    const down = new ApiError(503, { status: false, code: 'UNAVAILABLE' });
    await expect(splitOutcome(parent, () => Promise.reject(down))).rejects.toBe(down);
  });

  it('refuses an extraction that is no completed bundle', async () => {
    const read = () => Promise.reject(new Error('not called'));
    for (const record of [
      { id: 'x', result: { total: 1 } },
      { id: 'y', split: { classes, other: true }, result: null },
    ])
      await expect(splitOutcome(record as unknown as Extraction, read)).rejects.toThrow(
        `extraction ${record.id} is not a completed bundle`,
      );
  });
});
