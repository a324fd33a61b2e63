/**
 * 11. Creates through PgBouncer (Debian's, transaction pooling, unnamed statements as it needs)
 * next to the same creates straight to PostgreSQL: a second API process on the same database,
 * alternating with the first within each repetition.
 */
import { startPgBouncer } from '@xt/testkit';
import type { BenchStack } from '../lib/bench-stack.ts';
import { closedLoop, forMs, requireAnswered } from '../lib/client.ts';
import type { Plan } from '../lib/plan.ts';
import type { Results } from '../lib/report.ts';
import { startApi } from '../lib/stack.ts';
import { percentile } from '../lib/stats.ts';
import type { Target } from '../lib/targets.ts';

async function creates(target: Target, plan: Plan) {
  const { clients, seconds } = plan.pgbouncer;
  const answers = await closedLoop(clients, forMs(seconds * 1000), (n) =>
    target.create(n, { async: true }),
  );
  requireAnswered(answers, 202, `creates to ${target.name}`);
  return {
    perSecond: answers.length / seconds,
    p50: percentile(
      answers.map((a) => a.ms),
      50,
    ),
    p99: percentile(
      answers.map((a) => a.ms),
      99,
    ),
  };
}

export async function measurePgBouncer(
  stack: BenchStack,
  plan: Plan,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  const direct = stack.service.databaseUrl;
  const bouncer = await startPgBouncer(direct, 20);
  const api = await startApi(
    stack.workdir,
    'api-pgbouncer',
    stack.service,
    {
      DATABASE_URL: bouncer.via(direct),
      DATABASE_DIRECT_URL: direct,
      DB_PREPARED_STATEMENTS: 'false',
    },
    stack.options.nodeArgs,
  );
  try {
    const through = stack.direct.at(api.url, 'service via PgBouncer');
    const figures: Record<string, number[]> = {};
    for (let rep = 1; rep <= plan.reps; rep++) {
      for (const [key, target] of rep % 2
        ? ([
            ['direct', stack.direct],
            ['bouncer', through],
          ] as const)
        : ([
            ['bouncer', through],
            ['direct', stack.direct],
          ] as const)) {
        log(`§11 rep ${rep}: ${target.name}`);
        const r = await creates(target, plan);
        for (const [measure, value] of Object.entries(r))
          (figures[`${key}:${measure}`] ??= []).push(value);
      }
    }
    for (const [measure, unit, decimals] of [
      ['perSecond', 'creates/s', 0],
      ['p50', 'ms', 1],
      ['p99', 'ms', 1],
    ] as const) {
      results.add({
        section: '11',
        measure: `Asynchronous creates through PgBouncer, ${plan.pgbouncer.clients} clients, ${measure === 'perSecond' ? 'throughput' : measure}`,
        unit,
        decimals,
        service: figures[`bouncer:${measure}`] ?? [],
        baseline: figures[`direct:${measure}`] ?? [],
        baselineName: '(direct)',
      });
    }
  } finally {
    await api.stop();
    await bouncer.stop();
  }
}
