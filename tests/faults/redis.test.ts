/**
 * Fault tests, Redis: stopped, hung (SIGSTOP) and killed then restarted from its append-only
 * file, each for a few seconds under load. See docs/operations.md.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { checkOutcome, report } from '../support/faults/outcome.ts';
import { useFaultStack } from '../support/faults/scenario.ts';

const { stack: current, client } = useFaultStack({ workers: 2 });
const OUTAGE_MS = 4_000;
// An asynchronous create is answered from the committed row, Redis or not: far below this.
const ASYNC_TIMEOUT = { requestTimeoutMs: 5_000 };

describe('Redis faults', () => {
  it('Redis stopped: creates accepted, waits fall back to the database, all final after', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('redis stopped');
    stack.model.setDefaultBehaviour({ delayMs: 300 });
    const load = client(schemaId, 'sync', 'redis-stop');
    await sleep(1_500);
    await stack.redis.stop();
    await sleep(OUTAGE_MS);
    await stack.redis.start();
    const backAt = Date.now();
    await sleep(2_000);
    const outcome = await checkOutcome(stack, load, schemaId, { oneModelCallEach: true });
    report(
      'Redis stopped: every extraction final after Redis was back',
      outcome.finalAfter(backAt),
    );
  }, 180_000);

  it('Redis hung (SIGSTOP): creates accepted within the timeout, all final after', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('redis hung');
    stack.model.setDefaultBehaviour({ delayMs: 300 });
    const load = client(schemaId, 'async', 'redis-hang', ASYNC_TIMEOUT);
    await sleep(1_500);
    stack.redis.pause();
    await sleep(OUTAGE_MS);
    stack.redis.resume();
    const backAt = Date.now();
    await sleep(2_000);
    const outcome = await checkOutcome(stack, load, schemaId, { oneModelCallEach: true });
    report(
      'Redis hung: every extraction final after Redis answered again',
      outcome.finalAfter(backAt),
    );
  }, 180_000);

  it('Redis killed (-9) and restarted from its AOF: lost jobs are enqueued again', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('redis aof');
    stack.model.setDefaultBehaviour({ delayMs: 300 });
    const load = client(schemaId, 'async', 'redis-aof', ASYNC_TIMEOUT);
    await sleep(2_000);
    await stack.redis.kill();
    await stack.redis.start();
    const backAt = Date.now();
    await sleep(3_000);
    const outcome = await checkOutcome(stack, load, schemaId, { oneModelCallEach: true });
    report('Redis restarted from AOF: every extraction final after', outcome.finalAfter(backAt));
  }, 180_000);
});
