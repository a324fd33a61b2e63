/**
 * HAProxy for tests: the project's own balancer (ops/haproxy/haproxy.cfg, run as it is apart from
 * its addresses) in front of one API process, and any other configuration a test writes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@xt/embedded';
import { REPO_ROOT, waitFor } from '@xt/testkit';

/** Checks `config` (haproxy -c) and starts it in the foreground; kill the child to stop it. */
export function startHaproxy(
  dir: string,
  name: string,
  config: string,
  env: Record<string, string> = {},
): ChildProcess {
  const file = path.join(dir, `${name}.cfg`);
  writeFileSync(file, config);
  const check = spawnSync('haproxy', ['-c', '-q', '-f', file], { env: { ...process.env, ...env } });
  if (check.status !== 0) throw new Error(`${name}: ${String(check.stderr || check.stdout)}`);
  return spawn('haproxy', ['-db', '-f', file], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
}

/**
 * The project's balancer on 127.0.0.1, with this machine's API in place of compose's service
 * names; resolves once it answers its own health check.
 */
export async function startProjectBalancer(
  dir: string,
  apiUrl: string,
  env: Record<string, string> = {},
): Promise<{ url: string; port: number; process: ChildProcess }> {
  const port = await freePort();
  const apiPort = new URL(apiUrl).port;
  const config = readFileSync(path.join(REPO_ROOT, 'ops/haproxy/haproxy.cfg'), 'utf8')
    .replace('bind :8080', `bind 127.0.0.1:${port}`)
    .split('\n')
    .map((line) =>
      line.trim().startsWith('server-template api ')
        ? `  server api1 127.0.0.1:${apiPort} check`
        : line,
    )
    .join('\n');
  const child = startHaproxy(dir, 'lb', config, env);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    const res = await fetch(`${url}/lb-healthz`).catch(() => undefined);
    return res?.status === 200;
  }, 30_000);
  return { url, port, process: child };
}
