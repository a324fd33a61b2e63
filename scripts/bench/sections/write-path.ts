/**
 * Sections 1–4 and the memory of 2 and 3: everything measured through HTTP against the service
 * and the bare pipeline, alternating the two within each repetition so drifting load from other
 * work on the machine hits both alike.
 */
import type { BenchStack } from '../lib/bench-stack.ts';
import { MemoryWatch, mergePeaks, type MemoryBySection } from '../lib/memory.ts';
import { memoryKinds } from '../lib/stack-memory.ts';
import type { Plan } from '../lib/plan.ts';
import type { Results } from '../lib/report.ts';
import { summarise } from '../lib/stats.ts';
import { measureCost, type CostRun } from './cost.ts';
import { measureOverhead, type OverheadRun } from './overhead.ts';
import { measureReads } from './reads.ts';
import { measureScale } from './scale.ts';

export async function runWritePath(
  stack: BenchStack,
  plan: Plan,
  sections: ReadonlySet<number>,
  results: Results,
  log: (line: string) => void,
  memory: MemoryBySection,
): Promise<void> {
  log('warming up both pipelines');
  await Promise.all(
    Array.from({ length: 20 }, (_, n) =>
      Promise.all([stack.direct.create(n), stack.bare.create(n)]),
    ),
  );

  const overhead = new Map<string, OverheadRun[]>();
  const cost: { service: CostRun[]; bare: CostRun[] } = { service: [], bare: [] };
  for (let rep = 1; rep <= plan.reps; rep++) {
    if (sections.has(1)) {
      for (const clients of plan.overhead.levels) {
        for (const target of rep % 2 ? [stack.direct, stack.bare] : [stack.bare, stack.direct]) {
          log(`§1 rep ${rep}: ${target.name}, ${clients} clients`);
          const run = await measureOverhead(target, clients, {
            ...plan.overhead,
            modelMs: plan.modelMs,
          });
          const key = `${target === stack.direct ? 'service' : 'bare'}:${clients}`;
          overhead.set(key, [...(overhead.get(key) ?? []), run]);
        }
      }
    }
    if (sections.has(2)) {
      const watch = new MemoryWatch(memoryKinds(stack));
      await watch.start();
      for (const which of rep % 2
        ? (['service', 'bare'] as const)
        : (['bare', 'service'] as const)) {
        const target = which === 'service' ? stack.direct : stack.bare;
        log(`§2 rep ${rep}: ${target.name}, ${plan.cost.jobs} jobs`);
        const run = await measureCost(
          target,
          () => (which === 'service' ? stack.serviceKinds() : stack.bareKinds()),
          plan.cost,
        );
        log(
          `  ${run.perSecond.toFixed(0)}/s, ${run.cpuMsPerExtraction.toFixed(2)} CPU ms each, ${run.failed} failed`,
        );
        cost[which].push(run);
      }
      mergePeaks(memory, '2', await watch.stop());
    }
  }

  const pick = (key: string, f: (r: OverheadRun) => number) => (overhead.get(key) ?? []).map(f);
  for (const clients of plan.overhead.levels) {
    if (!overhead.has(`service:${clients}`)) continue;
    const base = {
      section: '1',
      unit: 'ms',
      baselineName: '',
    };
    const median = {
      ...base,
      measure: `Overhead, ${clients} client${clients > 1 ? 's' : ''}, median`,
      service: pick(`service:${clients}`, (r) => r.medianMs),
      baseline: pick(`bare:${clients}`, (r) => r.medianMs),
    };
    if (clients === 1) results.addWithTarget(median, 'median < 25 ms', (s) => s < 25);
    else results.add(median);
    if (clients > 1) {
      const p99 = {
        ...base,
        measure: `Overhead, ${clients} clients, p99`,
        service: pick(`service:${clients}`, (r) => r.p99Ms),
        baseline: pick(`bare:${clients}`, (r) => r.p99Ms),
      };
      if (clients === 200) results.addWithTarget(p99, 'p99 < 150 ms', (s) => s < 150);
      else results.add(p99);
    }
  }
  if (cost.service.length > 0) {
    results.addWithTarget(
      {
        section: '2',
        measure: `CPU per completed extraction, ${plan.workerConcurrency} in flight, model 1 s`,
        unit: 'CPU ms',
        decimals: 2,
        service: cost.service.map((r) => r.cpuMsPerExtraction),
        baseline: cost.bare.map((r) => r.cpuMsPerExtraction),
      },
      '≤ 1.5× bare',
      (s, b) => s <= 1.5 * b,
    );
    results.addWithTarget(
      {
        section: '2',
        measure: 'Throughput, 1 API + 1 worker process',
        unit: 'extractions/s',
        decimals: 0,
        service: cost.service.map((r) => r.perSecond),
        baseline: cost.bare.map((r) => r.perSecond),
      },
      '≥ 400/s',
      (s) => s >= 400,
    );
    const split = (runs: CostRun[]) => {
      const kinds = Object.keys(runs[0]?.cpuMsByKind ?? {});
      return kinds
        .map((k) => `${k} ${summarise(runs.map((r) => r.cpuMsByKind[k] ?? 0)).median.toFixed(2)}`)
        .join(', ');
    };
    results.note(
      `§2 CPU ms per extraction by process kind (median): service: ${split(cost.service)}; bare: ${split(cost.bare)}.`,
    );
    const failed = cost.service.reduce((n, r) => n + r.failed, 0);
    if (failed > 0) results.note(`§2: ${failed} service extractions failed during the cost runs.`);
  }

  if (sections.has(3)) await measureScale(stack, plan, results, log, memory);
  if (sections.has(4)) await measureReads(stack, plan, results, log);
}
