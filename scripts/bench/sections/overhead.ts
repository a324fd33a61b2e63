/**
 * 1. Service overhead: synchronous text extractions from 1, 50 and 200 closed-loop clients; each
 * answer's time minus the stand-in model's fixed latency is what the pipeline added.
 */
import { closedLoop, forMs, requireAnswered } from '../lib/client.ts';
import { percentile } from '../lib/stats.ts';
import type { Target } from '../lib/targets.ts';

export interface OverheadRun {
  clients: number;
  medianMs: number;
  p99Ms: number;
  perSecond: number;
  requests: number;
}

export async function measureOverhead(
  target: Target,
  clients: number,
  plan: { modelMs: number; singleRequests: number; seconds: number },
): Promise<OverheadRun> {
  const started = performance.now();
  const until =
    clients === 1 ? (sent: number) => sent >= plan.singleRequests : forMs(plan.seconds * 1000);
  const answers = await closedLoop(clients, until, (n) => target.create(n));
  const elapsed = (performance.now() - started) / 1000;
  requireAnswered(answers, 200, `synchronous creates from ${clients} clients`);
  const added = answers.map((a) => a.ms - plan.modelMs);
  return {
    clients,
    medianMs: percentile(added, 50),
    p99Ms: percentile(added, 99),
    perSecond: answers.length / elapsed,
    requests: answers.length,
  };
}
