import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './time.ts';

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
