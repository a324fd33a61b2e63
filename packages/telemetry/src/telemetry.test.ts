import { describe, expect, it } from 'vitest';
import { bearerAllowed } from './metrics-endpoint.ts';
import { probeAll } from './readiness.ts';

describe('probeAll', () => {
  it('names each dependency that failed, hung or threw, and passes only when all answered', async () => {
    const result = await probeAll(
      {
        postgres: () => Promise.resolve(1),
        redis: () => new Promise(() => undefined),
        browser: () => Promise.reject(new Error('no chromium')),
        thrower: () => {
          throw new Error('sync failure');
        },
      },
      50,
    );
    expect(result).toEqual({
      ok: false,
      checks: { postgres: true, redis: false, browser: false, thrower: false },
    });
    expect(await probeAll({ postgres: () => Promise.resolve() })).toEqual({
      ok: true,
      checks: { postgres: true },
    });
  });
});

describe('bearerAllowed', () => {
  it('lets any request by without a token, and only the exact bearer token with one', () => {
    expect(bearerAllowed(undefined, undefined)).toBe(true);
    expect(bearerAllowed(undefined, 'secret')).toBe(false);
    expect(bearerAllowed('Bearer secre', 'secret')).toBe(false);
    expect(bearerAllowed('Basic secret', 'secret')).toBe(false);
    expect(bearerAllowed('Bearer secret', 'secret')).toBe(true);
    expect(bearerAllowed('bearer secret', 'secret')).toBe(true);
  });
});
