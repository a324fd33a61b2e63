/**
 * 3. Scale-out: the cost section's load through HAProxy in front of 1 then 2 API processes,
 * with 1 then 2 worker processes; throughput and the create's p99 for each shape.
 */
import type { BenchStack } from '../lib/bench-stack.ts';
import type { Plan } from '../lib/plan.ts';
import type { Results } from '../lib/report.ts';
import { measureCost, type CostRun } from './cost.ts';
import { MemoryWatch, mergePeaks, type MemoryBySection } from '../lib/memory.ts';
import { memoryKinds } from '../lib/stack-memory.ts';

export async function measureScale(
  stack: BenchStack,
  plan: Plan,
  results: Results,
  log: (line: string) => void,
  memory: MemoryBySection,
): Promise<void> {
  while (stack.apis.length < 2) await stack.addApi();
  const runs = new Map<string, CostRun[]>();
  const watch = new MemoryWatch(memoryKinds(stack));
  await watch.start();
  // Ordered by workers so each worker process is started once.
  const shapes = [...plan.scale.shapes].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  for (const [apis, workers] of shapes) {
    while (stack.workers.length < workers) await stack.addWorker();
    while (stack.workers.length > workers) await stack.removeWorker();
    const target = await stack.balance(apis);
    for (let rep = 1; rep <= plan.scale.reps; rep++) {
      log(`§3 rep ${rep}: ${apis} API × ${workers} worker, ${plan.scale.jobs} jobs via HAProxy`);
      const run = await measureCost(target, () => stack.serviceKinds(), {
        ...plan.scale,
        timeoutSeconds: 120,
      });
      log(`  ${run.perSecond.toFixed(0)}/s, create p99 ${run.createP99Ms.toFixed(0)} ms`);
      runs.set(`${apis}x${workers}`, [...(runs.get(`${apis}x${workers}`) ?? []), run]);
    }
  }
  mergePeaks(memory, '3', await watch.stop());
  while (stack.workers.length > 1) await stack.removeWorker();

  const one = runs.get('1x1') ?? [];
  for (const [apis, workers] of plan.scale.shapes) {
    const these = runs.get(`${apis}x${workers}`) ?? [];
    results.add({
      section: '3',
      measure: `Throughput via HAProxy, ${apis} API × ${workers} worker`,
      unit: 'extractions/s',
      decimals: 0,
      service: these.map((r) => r.perSecond),
      baseline: one.map((r) => r.perSecond),
      baselineName: '(1 × 1)',
    });
    results.add({
      section: '3',
      measure: `Create p99 via HAProxy, ${apis} API × ${workers} worker`,
      unit: 'ms',
      decimals: 0,
      service: these.map((r) => r.createP99Ms),
      baseline: one.map((r) => r.createP99Ms),
      baselineName: '(1 × 1)',
    });
  }
}
