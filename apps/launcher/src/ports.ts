import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { choosePort, isPortFree } from '@xt/embedded';
import type { LauncherConfig } from './config.ts';

/** The address as people type it: an IPv6 host in brackets, all interfaces as loopback. */
export function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Before anything starts: the API's address must be free, or the launcher would start
 * PostgreSQL and Redis only for the API to fail. Undefined when free, else the line to print.
 */
export async function apiAddressProblem(config: LauncherConfig): Promise<string | undefined> {
  if (config.PORT === 0 || (await isPortFree(config.PORT, config.HOST))) return undefined;
  return (
    `${config.HOST}:${config.PORT} is in use (another npm start?): ` +
    'set PORT to a free port (HOST chooses the address)'
  );
}

/**
 * Where worker `index` (from 0) serves /healthz, /readyz and /metrics: WORKER_METRICS_PORT +
 * index when set (0 turns them off), else a free port remembered in DATA_DIR/workers/<index>,
 * as the embedded servers' ports are: the same across restarts while it stays free.
 */
export async function workerOpsEnv(
  config: LauncherConfig,
  index: number,
): Promise<Record<string, string>> {
  const host = { WORKER_METRICS_HOST: config.WORKER_METRICS_HOST };
  if (config.WORKER_METRICS_PORT !== undefined) {
    return {
      ...host,
      WORKER_METRICS_PORT: String(config.WORKER_METRICS_PORT),
      WORKER_INDEX: String(index),
    };
  }
  const dir = path.join(config.DATA_DIR, 'workers', String(index));
  await mkdir(dir, { recursive: true });
  return { ...host, WORKER_METRICS_PORT: String(await choosePort(dir)), WORKER_INDEX: '0' };
}
