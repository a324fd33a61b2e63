import { describe, expect, it } from 'vitest';
import { displayText } from './display.ts';

describe('displayText', () => {
  it('formats numbers by their format code, as Excel and LibreOffice show them', () => {
    expect(displayText(1234.5, '#,##0.00')).toBe('1,234.50');
    expect(displayText(0.125, '0.0%')).toBe('12.5%');
    expect(displayText(12345, '0.00E+00')).toBe('1.23E+04');
    expect(displayText(1.5, '# ?/?')).toBe('1 1/2');
    expect(displayText(-5, '#,##0.00;(#,##0.00)')).toBe('(5.00)');
    expect(displayText(0.1 + 0.2, 'General')).toBe('0.3');
    expect(displayText(2500, '"$"#,##0.00')).toBe('$2,500.00');
  });

  it('keeps a currency symbol but reads every number with the same separators', () => {
    // [$€-407] names German: Excel takes the separators from the reader's settings, not from it.
    expect(displayText(1234.5, '#,##0.00 [$€-407]')).toBe('1,234.50 €');
    expect(displayText(1234.5, '_-* #,##0.00\\ [$€-407]_-;\\-* #,##0.00\\ [$€-407]_-')).toBe(
      '1,234.50 €',
    );
  });

  it('writes dates as ISO dates, with the time when the format shows one', () => {
    const serial = 45356; // 2024-03-05
    expect(displayText(serial, 'dd/mm/yyyy')).toBe('2024-03-05');
    expect(displayText(serial, '[$-409]mmmm d, yyyy;@')).toBe('2024-03-05');
    expect(displayText(serial + 0.5, 'dd/mm/yyyy hh:mm')).toBe('2024-03-05 12:00');
    expect(displayText(new Date(Date.UTC(2024, 2, 5)), 'mm-dd-yy')).toBe('2024-03-05');
    // A Date whose format is not a date one (ExcelJS decided it was) is still a date.
    expect(displayText(new Date(Date.UTC(2023, 11, 31)), undefined)).toBe('2023-12-31');
  });

  it('shows times and durations as formatted', () => {
    expect(displayText(0.5, 'h:mm AM/PM')).toBe('12:00 PM');
    expect(displayText(1.25, '[h]:mm:ss')).toBe('30:00:00');
  });

  it('writes whole numbers in General in full, not in scientific notation', () => {
    expect(displayText(4006381333931, 'General')).toBe('4006381333931');
    expect(displayText(4006381333931, undefined)).toBe('4006381333931');
  });

  it('shows text, booleans, errors and nothing as a sheet does', () => {
    expect(displayText('A-100', '@')).toBe('A-100');
    expect(displayText(true, undefined)).toBe('TRUE');
    expect(displayText(false, '"TRUE";"TRUE";"FALSE"')).toBe('FALSE');
    // LibreOffice stores a boolean as a number under this format.
    expect(displayText(0, '"TRUE";"TRUE";"FALSE"')).toBe('FALSE');
    expect(displayText({ error: '#DIV/0!' }, undefined)).toBe('#DIV/0!');
    expect(displayText(null, '#,##0')).toBe('');
  });

  it('falls back to General for a format code it cannot read', () => {
    expect(displayText(12.5, '[[[bad')).toBe('12.5');
  });
});
