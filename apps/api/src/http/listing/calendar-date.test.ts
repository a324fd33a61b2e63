import { describe, expect, it } from 'vitest';
import { addUtcDays, parseCalendarDate } from './calendar-date.ts';

describe('parseCalendarDate', () => {
  it('gives the start of the day in UTC', () => {
    expect(parseCalendarDate('2026-11-21')?.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(parseCalendarDate('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseCalendarDate('0050-01-01')?.getUTCFullYear()).toBe(50);
  });

  it.each([
    '2026-02-30',
    '2026-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-01-00',
    '2026-1-01',
    '26-01-01',
    '2026/01/01',
    '2026-01-01T00:00:00Z',
    ' 2026-01-01',
    '2026-01-01 ',
    '',
    'yesterday',
  ])('rejects %j', (text) => {
    expect(parseCalendarDate(text)).toBeUndefined();
  });
});

describe('addUtcDays', () => {
  it('crosses month and year ends', () => {
    expect(addUtcDays(new Date('2026-12-31T00:00:00Z'), 1).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
    expect(addUtcDays(new Date('2024-02-28T00:00:00Z'), 1).toISOString()).toBe(
      '2024-02-29T00:00:00.000Z',
    );
  });
});
