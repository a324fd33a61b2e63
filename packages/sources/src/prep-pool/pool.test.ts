import { describe, expect, it } from 'vitest';
import { endedFailure } from './pool.ts';

const died = (signal: NodeJS.Signals | null, stderr = '', code: number | null = null) =>
  ({ how: 'died', code, signal, stderr }) as const;

describe('a prep process that ended without answering', () => {
  it('fails its task as too large when it ran out of memory', () => {
    for (const ended of [
      died(
        null,
        'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
        134,
      ),
      died('SIGABRT'),
      died('SIGTRAP', '# Fatal process out of memory: Zone'),
      died(null, "terminate called after throwing an instance of 'std::bad_alloc'", 134),
    ]) {
      expect(endedFailure(ended, 'pdf'), JSON.stringify(ended)).toMatchObject({
        code: 'SOURCE_TOO_LARGE',
        retryable: false,
      });
    }
  });

  it('fails text that ran out of memory as unreadable, as its thread did', () => {
    expect(endedFailure(died('SIGABRT'), 'text')).toMatchObject({
      code: 'SOURCE_UNREADABLE',
      retryable: false,
    });
  });

  it('blames itself, retried, for any other death and for not loading', () => {
    expect(endedFailure(died('SIGSEGV'), 'image')).toMatchObject({
      code: 'INTERNAL',
      retryable: true,
    });
    const load = endedFailure({ how: 'load-failed', code: 1, signal: null, stderr: 'boom' }, 'pdf');
    expect(load).toMatchObject({ code: 'INTERNAL', retryable: true });
    expect(load.message).toMatch(/boom/);
  });

  it('times out retried, except for text read in linear time', () => {
    expect(endedFailure({ how: 'timeout', ms: 5 }, 'pdf')).toMatchObject({
      code: 'TIMEOUT',
      retryable: true,
    });
    expect(endedFailure({ how: 'timeout', ms: 5 }, 'email').retryable).toBe(false);
  });
});
