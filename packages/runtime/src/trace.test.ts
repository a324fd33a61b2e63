import { describe, expect, it } from 'vitest';
import { continueTrace, parseTraceparent } from './trace.ts';

describe('traceparent', () => {
  it('reads a valid header and refuses what the specification says to ignore', () => {
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentId: '00f067aa0ba902b7',
      flags: '01',
    });
    for (const bad of [
      undefined,
      'nonsense',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
    ])
      expect(parseTraceparent(bad)).toBeUndefined();
  });

  it('keeps the trace id and flags, with a new span id, or starts a new trace', () => {
    const given = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    const next = parseTraceparent(continueTrace(given));
    expect(next).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', flags: '00' });
    expect(next?.parentId).not.toBe('00f067aa0ba902b7');
    expect(parseTraceparent(continueTrace(undefined))?.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('draws new ids from its pool without repeating, across refills', () => {
    // 4 KiB pool, 24 bytes a trace: 1,000 new traces refill it several times.
    const traces = Array.from({ length: 1000 }, () => parseTraceparent(continueTrace(undefined)));
    expect(traces.every((t) => t !== undefined)).toBe(true);
    expect(new Set(traces.map((t) => t?.traceId)).size).toBe(1000);
    expect(new Set(traces.map((t) => t?.parentId)).size).toBe(1000);
  });
});
