/**
 * 2./3. Cost per extraction and throughput: `jobs` asynchronous text extractions submitted as
 * fast as `submitters` clients can, the workers holding up to their concurrency in flight; CPU
 * of every service process read from /proc over the run, divided by the extractions completed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { closedLoop, requireAnswered } from '../lib/client.ts';
import { cpuMs } from '../lib/proc.ts';
import { percentile } from '../lib/stats.ts';
import type { Target } from '../lib/targets.ts';

export interface CostRun {
  jobs: number;
  completed: number;
  failed: number;
  perSecond: number;
  cpuMsPerExtraction: number;
  /** The same, split by process kind (API, worker, PostgreSQL, Redis, HAProxy). */
  cpuMsByKind: Record<string, number>;
  createP99Ms: number;
  seconds: number;
}

export async function measureCost(
  target: Target,
  kinds: () => Promise<Record<string, number[]>>,
  plan: { jobs: number; submitters: number; timeoutSeconds: number },
): Promise<CostRun> {
  const before = await target.finished();
  const startKinds = await kinds();
  const cpuStart = Object.fromEntries(
    Object.entries(startKinds).map(([kind, pids]) => [kind, cpuMs(pids)]),
  );
  const t0 = performance.now();
  const answers = await closedLoop(
    plan.submitters,
    (sent) => sent >= plan.jobs,
    (n) => target.create(n, { async: true }),
  );
  requireAnswered(answers, 202, `asynchronous creates to ${target.name}`);
  const accepted = answers.length;
  let now = await target.finished();
  const deadline = t0 + plan.timeoutSeconds * 1000;
  while (now.done - before.done < accepted && performance.now() < deadline) {
    await sleep(100);
    now = await target.finished();
  }
  const seconds = (performance.now() - t0) / 1000;
  // Same processes as at the start plus any started since (children), so no CPU is lost.
  const endKinds = await kinds();
  const cpuByKind: Record<string, number> = {};
  for (const [kind, pids] of Object.entries(endKinds)) {
    const all = [...new Set([...(startKinds[kind] ?? []), ...pids])];
    cpuByKind[kind] = cpuMs(all) - (cpuStart[kind] ?? 0);
  }
  const spent = Object.values(cpuByKind).reduce((a, b) => a + b, 0);
  const completed = now.done - before.done - (now.failed - before.failed);
  return {
    jobs: plan.jobs,
    completed,
    failed: now.failed - before.failed,
    perSecond: (now.done - before.done) / seconds,
    cpuMsPerExtraction: spent / Math.max(1, completed),
    cpuMsByKind: Object.fromEntries(
      Object.entries(cpuByKind).map(([kind, ms]) => [kind, ms / Math.max(1, completed)]),
    ),
    createP99Ms: percentile(
      answers.map((a) => a.ms),
      99,
    ),
    seconds,
  };
}
