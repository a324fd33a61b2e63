/**
 * Fault tests, PostgreSQL: restarted, and stopped for a few seconds, under load. Requests that
 * need it answer 503 UNAVAILABLE with Retry-After meanwhile; see docs/operations.md.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { checkOutcome, report } from '../support/faults/outcome.ts';
import { useFaultStack } from '../support/faults/scenario.ts';

const { stack: current, client } = useFaultStack({ workers: 2 });

describe('PostgreSQL faults', () => {
  it('PostgreSQL restarted: 503 with Retry-After meanwhile, all final after', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('postgres restart');
    stack.model.setDefaultBehaviour({ delayMs: 300 });
    const load = client(schemaId, 'async', 'pg-restart');
    await sleep(2_000);
    await stack.postgres.stop();
    await stack.postgres.start();
    const backAt = Date.now();
    await sleep(2_000);
    // A job whose final write met the restart calls the model again (charged once): so no
    // one-call-each here.
    const outcome = await checkOutcome(stack, load, schemaId);
    report(
      'PostgreSQL restart: every extraction final after it was back',
      outcome.finalAfter(backAt),
    );
  }, 180_000);

  it('PostgreSQL stopped under load: clients see 503 and retry, all final after', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('postgres stopped');
    stack.model.setDefaultBehaviour({ delayMs: 300 });
    const load = client(schemaId, 'sync', 'pg-stop');
    await sleep(2_000);
    await stack.postgres.stop();
    await sleep(4_000);
    await stack.postgres.start();
    const backAt = Date.now();
    await sleep(2_000);
    const outcome = await checkOutcome(stack, load, schemaId);
    const unavailable = load.submissions.flatMap((s) => s.answers).filter((a) => a.status === 503);
    // The outage was seen (and answered as documented), not slept through.
    expect(unavailable.length).toBeGreaterThan(0);
    report(
      'PostgreSQL stopped 4 s: every extraction final after it was back',
      outcome.finalAfter(backAt),
    );
  }, 180_000);
});
