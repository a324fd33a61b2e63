import { describe, expect, it } from 'vitest';
import { failureOf } from '@xt/testkit';
import { startDeadline, withTimeout } from './deadline.ts';

describe('withTimeout', () => {
  it('passes the work through while the signal holds', async () => {
    const { signal, clear } = startDeadline(60_000, undefined);
    expect(await withTimeout(Promise.resolve(7), signal)).toBe(7);
    await expect(withTimeout(Promise.reject(new Error('own')), signal)).rejects.toThrow('own');
    clear();
  });

  it('fails as a retryable TIMEOUT when the deadline passes, without waiting for the work', async () => {
    const { signal, clear } = startDeadline(20, undefined);
    const failure = await failureOf(withTimeout(new Promise(() => {}), signal));
    expect(failure).toMatchObject({ code: 'TIMEOUT', retryable: true });
    clear();
  });

  it('follows the worker stop signal too', async () => {
    const stop = new AbortController();
    const { signal, clear } = startDeadline(60_000, stop.signal);
    const pending = withTimeout(new Promise(() => {}), signal);
    stop.abort('worker shutting down');
    expect(signal.aborted).toBe(true);
    await expect(pending).rejects.toMatchObject({ code: 'TIMEOUT' });
    clear();
  });

  it('refuses at once when the signal is already aborted', async () => {
    const stop = new AbortController();
    stop.abort();
    const { signal, clear } = startDeadline(60_000, stop.signal);
    await expect(withTimeout(Promise.resolve(1), signal)).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    clear();
  });
});
