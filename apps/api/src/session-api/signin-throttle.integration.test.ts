/**
 * Sign-in throttling against real Redis: a guesser is stopped per email and address, a guesser
 * rotating addresses by a looser bound per email, and neither locks the owner out of an address
 * they signed in from before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@xt/runtime';
import { createRedis } from '@xt/queue';
import { testRedisUrl, uniquePrefix } from '@xt/testkit';
import { signInThrottle } from './signin-throttle.ts';

const redis = createRedis(testRedisUrl(), 'producer');
afterAll(() => redis.disconnect());

const refused = async (work: Promise<void>) => {
  const err = (await work.then(
    () => null,
    (e: unknown) => e,
  )) as { status?: number } | null;
  return err?.status === 429;
};

describe('sign-in throttle', () => {
  it('bounds guessers per email and address, then per email, never the owner at a known address', async () => {
    const throttle = signInThrottle({
      redis,
      prefix: uniquePrefix('signin'),
      perEmail: 2,
      perEmailGlobal: 6,
      perAddress: 100,
      windowSeconds: 60,
      logger: createLogger('silent', 'test'),
    });
    // The producer connection queues nothing while it connects: wait until it is up.
    if (redis.status !== 'ready') await new Promise((r) => redis.once('ready', r));
    const email = 'owner@acme.test';
    // The owner signed in from home once.
    await throttle.attempt(email, '198.51.100.7');
    await throttle.succeeded(email, '198.51.100.7');

    // One guesser, one address: two attempts, then refused.
    expect(await refused(throttle.attempt(email, '203.0.113.1'))).toBe(false);
    expect(await refused(throttle.attempt(email, '203.0.113.1'))).toBe(false);
    expect(await refused(throttle.attempt(email, '203.0.113.1'))).toBe(true);
    // Rotating addresses: the looser bound per email stops it too: six attempts from addresses
    // it never signed in from (the owner's first, the three above, and two more).
    expect(await refused(throttle.attempt(email, '203.0.113.2'))).toBe(false);
    expect(await refused(throttle.attempt(email, '203.0.113.3'))).toBe(false);
    expect(await refused(throttle.attempt(email, '203.0.113.4'))).toBe(true);
    // The owner, from the address they used before, is not locked out.
    expect(await refused(throttle.attempt(email, '198.51.100.7'))).toBe(false);
    expect(await refused(throttle.attempt(email, '198.51.100.7'))).toBe(false);
    // Another email is untouched.
    await expect(throttle.attempt('other@acme.test', '203.0.113.1')).resolves.toBeUndefined();
  });
});
