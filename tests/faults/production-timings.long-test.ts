/**
 * The recovery figures of docs/operations.md with production's timings (lock 20 s, stalled check
 * every 10 s, reconciler every 15 s for rows older than 15 s, backoff from 5 s), which make each
 * scenario take up to a minute: run with `npm run test:faults:long`, not in the ordinary suite.
 * The same assertions as the fast fault tests; the figures are printed, not asserted.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@xt/testkit';
import { checkOutcome, report } from '../support/faults/outcome.ts';
import { activeJobsOf } from '../support/faults/active-jobs.ts';
import { useFaultStack } from '../support/faults/scenario.ts';

const { stack: current, client } = useFaultStack({ workers: 2, recovery: 'production' });

describe('recovery with production timings', () => {
  it('worker kill -9: drain on another worker', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('long kill');
    stack.model.setDefaultBehaviour({ delayMs: 3_000 });
    const load = client(schemaId, 'async', 'long-kill9');
    const victim = stack.workers[0]!;
    const orphaned = await waitFor(async () => {
      const jobs = await activeJobsOf(current(), victim.name);
      return jobs.length >= 2 && jobs;
    }, 30_000);
    const killedAt = Date.now();
    await victim.signal('SIGKILL');
    await sleep(2_000);
    const outcome = await checkOutcome(stack, load, schemaId, { finalWithinMs: 120_000 });
    const drained = outcome.rows.filter((r) => orphaned.includes(r.id));
    expect(drained).toHaveLength(orphaned.length);
    report(
      'production timings, worker kill -9: its jobs final on another worker after',
      Math.max(...drained.map((r) => r.finishedAt!.getTime())) - killedAt,
    );
  }, 300_000);

  it('Redis killed and restarted from its AOF', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('long aof');
    stack.model.setDefaultBehaviour({ delayMs: 300 });
    const load = client(schemaId, 'async', 'long-aof', { requestTimeoutMs: 5_000 });
    await sleep(2_000);
    await stack.redis.kill();
    await sleep(2_000);
    await stack.redis.start();
    const backAt = Date.now();
    await sleep(2_000);
    const outcome = await checkOutcome(stack, load, schemaId, { finalWithinMs: 120_000 });
    report(
      'production timings, Redis down 2 s (kill -9, AOF): all final after',
      outcome.finalAfter(backAt),
    );
  }, 300_000);

  it('PostgreSQL stopped for 4 s', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('long pg');
    stack.model.setDefaultBehaviour({ delayMs: 300 });
    const load = client(schemaId, 'async', 'long-pg');
    await sleep(2_000);
    await stack.postgres.stop();
    await sleep(4_000);
    await stack.postgres.start();
    const backAt = Date.now();
    await sleep(2_000);
    const outcome = await checkOutcome(stack, load, schemaId, { finalWithinMs: 120_000 });
    report('production timings, PostgreSQL down 4 s: all final after', outcome.finalAfter(backAt));
  }, 300_000);
});
