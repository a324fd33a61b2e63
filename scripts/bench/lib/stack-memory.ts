/** Which processes of the bench stack make up each kind that MemoryWatch samples. */
import type { BenchStack } from './bench-stack.ts';
import { processTree } from './proc.ts';

export function memoryKinds(stack: BenchStack) {
  return async () => ({
    API: processTree(stack.apis.map((p) => p.pid)),
    worker: processTree(stack.workers.map((p) => p.pid)),
    PostgreSQL: await stack.servers.postgresPids([stack.serviceDbName, stack.bareDbName]),
    Redis: [stack.servers.redisPid],
    HAProxy: stack.haproxy ? [stack.haproxy.pid] : [],
    'bare API': [stack.bareProcs[0]!.pid],
    'bare worker': [stack.bareProcs[1]!.pid],
  });
}
