import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '@xt/embedded';
import { startCommand, type AppProcess } from './processes.ts';
import { waitFor } from './wait.ts';

const run = promisify(execFile);

export interface RunningRedisCluster {
  /** The service's cluster form of REDIS_URL: `redis+cluster://127.0.0.1:p1,127.0.0.1:p2,…`. */
  url: string;
  ports: number[];
  stop(): Promise<void>;
}

/** Distinct free ports: each node needs one for clients and one for the cluster bus. */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/**
 * A Redis Cluster of `masters` nodes (no replicas) on this machine: Debian's redis-server with
 * `--cluster-enabled yes`, joined by `redis-cli --cluster create`, resolved once every node
 * reports `cluster_state:ok`. Nothing is persisted; the nodes' files live in a temp directory.
 */
export async function startRedisCluster(masters = 3): Promise<RunningRedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'xt-redis-cluster-'));
  const ports = await freePorts(masters * 2);
  const clientPorts = ports.slice(0, masters);
  const nodes: AppProcess[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop('SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const [i, port] of clientPorts.entries())
      nodes.push(
        await startCommand(
          'redis-server',
          [
            ...['--port', String(port), '--bind', '127.0.0.1'],
            ...['--cluster-enabled', 'yes', '--cluster-port', String(ports[masters + i])],
            ...['--cluster-config-file', path.join(dir, `nodes-${port}.conf`), '--dir', dir],
            ...['--save', '', '--appendonly', 'no'],
          ],
          process.env,
          'Ready to accept connections',
        ),
      );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...clientPorts.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of clientPorts) {
      const node = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
      try {
        await node.connect();
        await waitFor(async () => String(await node.cluster('INFO')).includes('cluster_state:ok'));
      } finally {
        node.disconnect();
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `redis+cluster://${clientPorts.map((p) => `127.0.0.1:${p}`).join(',')}`,
    ports: clientPorts,
    stop,
  };
}
