/**
 * 4. Read path: autocannon on `GET /extractions/{id}` and on a list page, beside the bare
 * Express + pg routes running the same queries, alternating within each repetition.
 */
import autocannon from 'autocannon';
import type { BenchStack } from '../lib/bench-stack.ts';
import type { Plan } from '../lib/plan.ts';
import type { Results } from '../lib/report.ts';
import { idOf, type Target } from '../lib/targets.ts';

async function cannon(
  target: Target,
  path: string,
  plan: Plan,
): Promise<{ perSecond: number; p99: number; bad: number }> {
  const result = await autocannon({
    url: `${target.base}${path}`,
    headers: target.headers,
    connections: plan.reads.connections,
    duration: plan.reads.seconds,
  });
  return {
    perSecond: result.requests.average,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

export async function measureReads(
  stack: BenchStack,
  plan: Plan,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  const ids = new Map<Target, string>();
  for (const target of [stack.direct, stack.bare]) {
    const id = idOf(await target.create(0));
    if (!id) throw new Error(`${target.name}: no id to read`);
    ids.set(target, id);
  }
  const figures: Record<string, number[]> = {};
  for (let rep = 1; rep <= plan.reps; rep++) {
    for (const kind of ['one', 'list'] as const) {
      for (const target of rep % 2 ? [stack.direct, stack.bare] : [stack.bare, stack.direct]) {
        const path = target.readPaths(ids.get(target)!)[kind];
        log(`§4 rep ${rep}: ${target.name} GET ${path}`);
        const r = await cannon(target, path, plan);
        if (r.bad > 0) log(`  ${r.bad} requests were not 2xx`);
        const key = `${target === stack.direct ? 'service' : 'bare'}:${kind}`;
        (figures[key] ??= []).push(r.perSecond);
        (figures[`${key}:p99`] ??= []).push(r.p99);
      }
    }
  }
  for (const [kind, label] of [
    ['one', 'GET /extractions/{id}'],
    ['list', 'GET /extractions?limit=10'],
  ] as const) {
    results.addWithTarget(
      {
        section: '4',
        measure: `${label}, ${plan.reads.connections} connections`,
        unit: 'requests/s',
        decimals: 0,
        service: figures[`service:${kind}`] ?? [],
        baseline: figures[`bare:${kind}`] ?? [],
      },
      '≥ 60% of bare',
      (s, b) => s >= 0.6 * b,
    );
    results.add({
      section: '4',
      measure: `${label}, p99 latency`,
      unit: 'ms',
      decimals: 0,
      service: figures[`service:${kind}:p99`] ?? [],
      baseline: figures[`bare:${kind}:p99`] ?? [],
    });
  }
}
