import { describe, expect, it } from 'vitest';
import {
  autoKindFor,
  FORMATS,
  kindsReading,
  SOURCE_KINDS,
  SOURCE_TYPES,
  type FormatName,
} from './source-kinds.ts';

const formats = Object.keys(FORMATS) as FormatName[];

describe('the registry of source kinds', () => {
  it('has `auto` read every format, and some other kind read each', () => {
    expect([...SOURCE_KINDS.auto.formats]).toEqual(formats);
    for (const format of formats) expect(kindsReading(format).length, format).toBeGreaterThan(0);
  });

  it('has `auto` prefer a kind with a layout of its own to a fallback, else registry order', () => {
    expect(kindsReading('csv')).toEqual(['spreadsheet', 'text']);
    expect(kindsReading('tsv')).toEqual(['spreadsheet', 'text']);
    expect(kindsReading('office-encrypted')).toEqual(['document', 'spreadsheet']);
    expect(kindsReading('txt')).toEqual(['text']);
    expect(autoKindFor('html', 'upload')).toBe('text');
    expect(autoKindFor('html', 'url')).toBe('webpage');
  });

  it('never lists `auto` or a kind that reads no file among the readers of a format', () => {
    const readers = new Set(formats.flatMap((f) => kindsReading(f)));
    expect(readers.has('auto')).toBe(false);
    expect(readers.has('webpage')).toBe(false);
    expect(SOURCE_TYPES.filter((t) => t !== 'auto' && t !== 'webpage')).toEqual(
      SOURCE_TYPES.filter((t) => readers.has(t)),
    );
  });
});
