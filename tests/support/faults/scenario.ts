/**
 * The frame every fault test file shares: one stack per file (started once, stopped at the end),
 * a client factory, and clean-up after each scenario so a failed one does not spill into the next.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { FaultClient, type FaultClientOptions } from '@xt/testkit/faults';
import { startFaultStack, type FaultStack } from './stack.ts';

export interface FaultScenarios {
  stack: () => FaultStack;
  client: (
    schemaId: string,
    mode: FaultClientOptions['mode'],
    label: string,
    options?: Partial<FaultClientOptions>,
  ) => FaultClient;
}

export function useFaultStack(options: Parameters<typeof startFaultStack>[0] = {}): FaultScenarios {
  let stack: FaultStack | undefined;
  const clients: FaultClient[] = [];
  const current = (): FaultStack => {
    if (stack === undefined) throw new Error('the fault stack did not start');
    return stack;
  };

  beforeAll(async () => {
    stack = await startFaultStack(options);
    stack.markLogs();
  }, 240_000);

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    if (stack === undefined) return;
    stack.model.setDefaultBehaviour({});
    // Put back what a failed scenario may have left stopped or paused.
    stack.redis.resume();
    stack.postgres.resume();
    for (const process of [stack.api, ...stack.workers])
      if (!process.running && process.unexpectedExit() === undefined) await process.restart();
    stack.markLogs();
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  }, 120_000);

  return {
    stack: current,
    client: (schemaId, mode, label, extra = {}) => {
      const s = current();
      const made = new FaultClient({
        baseUrl: () => s.apiUrl,
        apiKey: s.apiKey,
        schemaId,
        perSecond: 4,
        mode,
        waitSeconds: 10,
        label,
        ...extra,
      });
      clients.push(made);
      made.start();
      return made;
    },
  };
}
