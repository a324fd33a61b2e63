import { describe, expect, it } from 'vitest';
import { logProblems } from './log-check.ts';

const line = (level: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level, time: 1, msg: 'm', ...extra });

describe('logProblems', () => {
  it('sorts pino lines into warnings, errors and stack traces', () => {
    const output = [
      line(30),
      line(40, { msg: 'redis connection lost' }),
      line(50, { msg: 'unhandled error' }),
      line(30, { err: { stack: 'Error: x\n    at f (file.ts:1:1)' } }),
      '',
    ].join('\n');
    const problems = logProblems(output);
    expect(problems.warnings).toHaveLength(1);
    expect(problems.errors).toHaveLength(1);
    expect(problems.stacks).toHaveLength(1);
  });

  it('counts text that is not a log line (a raw stack, a crash message) as an error', () => {
    const problems = logProblems('TypeError: boom\n    at main (main.ts:3:9)\n');
    expect(problems.errors).toHaveLength(2);
    expect(problems.stacks).toEqual(['    at main (main.ts:3:9)']);
  });
});
