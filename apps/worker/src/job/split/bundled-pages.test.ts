import { describe, expect, it } from 'vitest';
import { bundledPages } from './bundled-pages.ts';

describe('bundledPages', () => {
  const pages = { from: 4, to: 6 };

  it("gives a PDF child's bundle pages, the prepare and split steps' one reading of them", () => {
    expect(bundledPages({ sourceType: 'pdf', pages })).toEqual(pages);
  });

  it("gives none for an image bundle's child, which is the image itself, nor for a row of no bundle", () => {
    expect(bundledPages({ sourceType: 'image', pages: { from: 2, to: 2 } })).toBeUndefined();
    expect(bundledPages({ sourceType: 'pdf', pages: null })).toBeUndefined();
    expect(bundledPages({ sourceType: 'text' })).toBeUndefined();
  });
});
