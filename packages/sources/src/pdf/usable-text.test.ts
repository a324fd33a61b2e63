import { describe, expect, it } from 'vitest';
import { assessText, isUsableText } from './usable-text.ts';

describe('assessText', () => {
  it('accepts prose, tables and forms in any script', () => {
    expect(isUsableText('Invoice 2024-118\nTotal due: 1,234.50 EUR by 30 June')).toBe(true);
    expect(isUsableText('Qty\tItem\tPrice\n2\tWidget\t9.99\n1\tGadget\t19.00')).toBe(true);
    expect(isUsableText('Счёт № 42 от 1 марта, итого 500 рублей')).toBe(true);
  });

  it('calls near-empty text sparse', () => {
    expect(assessText('')).toBe('sparse');
    expect(assessText('  Page 3 of 10  ')).toBe('sparse');
  });

  it('calls glyphs without a Unicode meaning garbled', () => {
    expect(assessText('\uFFFD'.repeat(30) + 'abc')).toBe('garbled');
    expect(assessText('\uE001\uE002\uE003'.repeat(10) + ' some words here')).toBe('garbled');
  });

  it('calls punctuation soup from a font with a broken encoding garbled', () => {
    expect(assessText('!"#$%&\'()*+,-./:;<=>?@[]^_`{|}~'.repeat(2))).toBe('garbled');
  });
});
