import { describe, expect, it } from 'vitest';
import { addUtcDays, formatTimestamp, parseCalendarDate } from './time.ts';

describe('formatTimestamp', () => {
  it('writes milliseconds and an explicit +00:00 offset', () => {
    expect(formatTimestamp(new Date(Date.UTC(2026, 10, 21, 9, 30)))).toBe(
      '2026-11-21T09:30:00.000+00:00',
    );
    expect(formatTimestamp(new Date('2026-01-02T03:04:05.678Z'))).toBe(
      '2026-01-02T03:04:05.678+00:00',
    );
  });

  it('converts other offsets to UTC', () => {
    expect(formatTimestamp(new Date('2026-11-21T11:30:00.001+02:00'))).toBe(
      '2026-11-21T09:30:00.001+00:00',
    );
  });

  it('round-trips through Date', () => {
    const d = new Date('2024-02-29T23:59:59.999Z');
    expect(new Date(formatTimestamp(d)).getTime()).toBe(d.getTime());
  });

  it('refuses an invalid date', () => {
    expect(() => formatTimestamp(new Date('nope'))).toThrow(RangeError);
  });
});

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
