import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Answer } from './client.ts';
import { undocumentedReason } from '@xt/testkit/faults';
import { cpuMs, peakRssMiB, processTree } from './proc.ts';
import { formatSummary, percentile, summarise } from './stats.ts';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  ms: 1,
  headers: new Headers(headers),
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('benchmark statistics', () => {
  it('takes nearest-rank percentiles and summarises repeated runs', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
    expect(formatSummary(summarise([3, 1, 2]))).toBe('2.0 (1.0–3.0)');
    expect(formatSummary(summarise([4]))).toBe('4.0');
  });
});

describe('documented answers (load script)', () => {
  it('accepts the envelopes and 503 with Retry-After, and names everything else', () => {
    expect(undocumentedReason(answer(202, { status: true, data: {} }), [202])).toBeUndefined();
    expect(undocumentedReason(answer(422, { status: false, message: 'x' }), [202])).toBeUndefined();
    expect(
      undocumentedReason(
        answer(503, { status: false, message: 'x' }, { 'retry-after': '1' }),
        [202],
      ),
    ).toBeUndefined();
    expect(undocumentedReason(answer(503, { status: false, message: 'x' }), [202])).toMatch(
      /Retry-After/,
    );
    expect(undocumentedReason(answer(500, { status: false, message: 'x' }), [202])).toBe('500');
    expect(undocumentedReason(answer(422, '<html>'), [202])).toMatch(/not JSON/);
    expect(undocumentedReason({ ...answer(0, ''), error: 'TimeoutError' }, [202])).toMatch(
      /no answer/,
    );
  });
});

describe('/proc accounting', () => {
  it('finds a child in the process tree and counts its CPU time and memory', async () => {
    const child = spawn(process.execPath, [
      '-e',
      'let x = 0; const end = Date.now() + 300; while (Date.now() < end) x++; setTimeout(() => {}, 5000);',
    ]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(processTree([process.pid])).toContain(child.pid);
      expect(cpuMs([child.pid!])).toBeGreaterThan(0);
      expect(peakRssMiB(child.pid!)).toBeGreaterThan(1);
    } finally {
      child.kill();
    }
  });
});
