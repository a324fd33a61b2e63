import { describe, expect, it } from 'vitest';
import { extractionFields } from './body.ts';

const typeError = (type: unknown) =>
  extractionFields.shape.type.safeParse(type).error?.issues[0]?.message;

describe('type', () => {
  it('says what to send for a type as records show it', () => {
    expect(typeError('url')).toBe(
      'type must be one of: text, image, pdf, webpage, document, spreadsheet, email, markdown, auto; records show type webpage as "url", send webpage',
    );
  });

  it('lists the types for any other unknown one', () => {
    expect(typeError('video')).toBe(
      'type must be one of: text, image, pdf, webpage, document, spreadsheet, email, markdown, auto',
    );
    expect(typeError('webpage')).toBeUndefined();
  });
});
