/**
 * Fault tests, process faults: a worker killed (-9) or stopped (SIGTERM) under load, and the
 * API killed while clients wait on synchronous creates. Real processes, own servers; see
 * docs/operations.md for what each fault looks like and how long recovery takes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@xt/testkit';
import { checkOutcome, report } from '../support/faults/outcome.ts';
import { activeJobsOf } from '../support/faults/active-jobs.ts';
import { useFaultStack } from '../support/faults/scenario.ts';

const { stack: current, client } = useFaultStack({ workers: 2 });

describe('process faults', () => {
  it('a worker killed (-9) mid-job: its jobs run again on another worker, charged once', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('worker kill');
    stack.model.setDefaultBehaviour({ delayMs: 3_000 });
    const load = client(schemaId, 'async', 'kill9');
    const victim = stack.workers[0]!;
    const orphaned = await waitFor(async () => {
      const jobs = await activeJobsOf(current(), victim.name);
      return jobs.length >= 2 && jobs;
    }, 30_000);
    const killedAt = Date.now();
    await victim.signal('SIGKILL');
    // Jobs the victim had claimed (its model call under way) and not finished when it died.
    const claimed = (await stack.rows(schemaId))
      .filter((r) => orphaned.includes(r.id) && r.status === 'processing')
      .map((r) => r.id);
    await sleep(2_000);
    const outcome = await checkOutcome(stack, load, schemaId);
    const drained = outcome.rows.filter((r) => orphaned.includes(r.id));
    expect(drained).toHaveLength(orphaned.length);
    // Their first attempt died with the worker; the rerun completed them and charged once.
    expect(claimed.length).toBeGreaterThan(0);
    for (const row of drained.filter((r) => claimed.includes(r.id)))
      expect(row.attempts).toBeGreaterThanOrEqual(2);
    report(
      'worker kill -9: its jobs final on another worker after',
      Math.max(...drained.map((r) => r.finishedAt!.getTime())) - killedAt,
    );
  }, 180_000);

  it('a worker stopped (SIGTERM) under load finishes its jobs, then exits 0', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('worker sigterm');
    stack.model.setDefaultBehaviour({ delayMs: 1_500 });
    const load = client(schemaId, 'async', 'sigterm');
    const leaving = stack.workers[1]!;
    const running = await waitFor(async () => {
      const jobs = await activeJobsOf(current(), leaving.name);
      return jobs.length >= 2 && jobs;
    }, 30_000);
    const stoppedAt = Date.now();
    const code = await leaving.signal('SIGTERM');
    const drainMs = Date.now() - stoppedAt;
    expect(code).toBe(0);
    const outcome = await checkOutcome(stack, load, schemaId, { oneModelCallEach: true });
    // Its running jobs finished in the grace period, on the first attempt.
    for (const row of outcome.rows.filter((r) => running.includes(r.id)))
      expect(row.attempts).toBe(1);
    report('worker SIGTERM: exited after draining its jobs in', drainMs);
  }, 180_000);

  it('the API killed (-9) while clients wait: retries with the same key get the one extraction', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('api kill');
    stack.model.setDefaultBehaviour({ delayMs: 3_000 });
    const load = client(schemaId, 'sync', 'apikill');
    await sleep(2_500);
    await stack.api.signal('SIGKILL');
    await sleep(1_000);
    await stack.api.restart();
    const backAt = Date.now();
    await sleep(2_000);
    const outcome = await checkOutcome(stack, load, schemaId, {
      allowNoAnswer: true,
      oneModelCallEach: true,
    });
    report(
      'API kill -9: every extraction final after the API was back',
      outcome.finalAfter(backAt),
    );
  }, 180_000);

  it('the API stopped (SIGTERM) while clients wait: each gets its 202, then it exits 0', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('api sigterm');
    // Slower than the wait below: every create is still waiting when the signal comes.
    stack.model.setDefaultBehaviour({ delayMs: 6_000 });
    const waiting = Array.from({ length: 4 }, (_, i) =>
      fetch(`${stack.apiUrl}/v1/extractions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${stack.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': `apisigterm-${i}`,
        },
        body: JSON.stringify({
          schema_id: schemaId,
          type: 'text',
          source: `Order apisigterm-${i}: 2 items, total 10`,
        }),
      }).then(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as { data?: { id?: string; status?: string } },
      })),
    );
    await waitFor(async () => (await stack.rows(schemaId)).length === 4, 20_000);
    await sleep(500);
    const code = await stack.api.signal('SIGTERM');
    expect(code).toBe(0);
    const answers = await Promise.all(waiting);
    // Nobody was cut off: the waits ended early with the documented 202 and where to look.
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.body.data?.id).toBeDefined();
    }
    await stack.api.restart();
    const rows = await stack.allFinal(schemaId, 60_000);
    expect(rows.map((r) => [r.status, r.charged])).toEqual(
      Array.from({ length: 4 }, () => ['completed', true]),
    );
    expect(stack.unexpectedExits()).toEqual([]);
  }, 180_000);
});

describe('provider faults', () => {
  it('a provider answering 429, then 500: jobs back off and complete once it recovers', async () => {
    const stack = current();
    const schemaId = await stack.createSchema('provider');
    const load = client(schemaId, 'async', 'provider');
    stack.model.setDefaultBehaviour({ status: 429, headers: { 'retry-after': '1' } });
    await sleep(3_000);
    stack.model.setDefaultBehaviour({ status: 500 });
    await sleep(3_000);
    stack.model.setDefaultBehaviour({});
    const recoveredAt = Date.now();
    const outcome = await checkOutcome(stack, load, schemaId);
    report(
      'provider 429 then 500: every extraction final after the provider recovered',
      outcome.finalAfter(recoveredAt),
    );
  }, 180_000);
});
