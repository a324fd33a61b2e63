import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '@xt/embedded';
import { startCommand, type AppProcess } from './processes.ts';
import { waitFor } from './wait.ts';

const MASTER = 'xtmaster';

export interface RunningRedisSentinel {
  /** The service's Sentinel form of REDIS_URL: `redis+sentinel://127.0.0.1:<port>/xtmaster`. */
  url: string;
  /** The port of the server Sentinel names as master now. */
  masterPort(): Promise<number>;
  /** Has Sentinel promote the replica, and resolves once it names the new master. */
  failover(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A master, one replica and one Sentinel watching them (quorum 1), all Debian's redis-server on
 * free ports, nothing persisted. Resolved once Sentinel knows the replica, so that a failover
 * has somewhere to go.
 */
export async function startRedisSentinel(): Promise<RunningRedisSentinel> {
  const dir = mkdtempSync(path.join(tmpdir(), 'xt-redis-sentinel-'));
  const processes: AppProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop('SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
  };
  const server = async (port: number, extra: string[]) => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
    const common = ['--save', '', '--appendonly', 'no'];
    processes.push(
      await startCommand(
        'redis-server',
        [...args, ...common, ...extra],
        process.env,
        'Ready to accept connections',
      ),
    );
  };
  const [masterPort, replicaPort, sentinelPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const sentinel = new Redis({ host: '127.0.0.1', port: sentinelPort, lazyConnect: true });
  const named = async () => {
    const [, port] = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER)) as [
      string,
      string,
    ];
    return Number(port);
  };
  try {
    await server(masterPort, []);
    await server(replicaPort, ['--replicaof', '127.0.0.1', String(masterPort)]);
    const config = path.join(dir, 'sentinel.conf');
    // Sentinel rewrites its file as it learns the replica and the failovers.
    writeFileSync(
      config,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${MASTER} 127.0.0.1 ${masterPort} 1`,
        `sentinel down-after-milliseconds ${MASTER} 2000`,
        `sentinel failover-timeout ${MASTER} 10000`,
        '',
      ].join('\n'),
    );
    processes.push(
      await startCommand('redis-server', [config, '--sentinel'], process.env, '+monitor master'),
    );
    await sentinel.connect();
    await waitFor(async () => {
      const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', MASTER)) as string[][];
      // Each replica is a flat list of field, value pairs; `flags` says whether it is usable.
      return replicas.some((r) => {
        const flags = r[r.indexOf('flags') + 1] ?? '';
        return flags === 'slave';
      });
    });
  } catch (err) {
    sentinel.disconnect();
    await stop();
    throw err;
  }
  return {
    url: `redis+sentinel://127.0.0.1:${sentinelPort}/${MASTER}`,
    masterPort: named,
    async failover() {
      const before = await named();
      await sentinel.call('SENTINEL', 'FAILOVER', MASTER);
      return waitFor(async () => {
        const now = await named();
        return now !== before && now;
      });
    },
    async stop() {
      sentinel.disconnect();
      await stop();
    },
  };
}
