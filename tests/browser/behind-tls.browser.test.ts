/**
 * The dashboard as it is usually deployed: a TLS-terminating load balancer in front, then the
 * project's own HAProxy (ops/haproxy/haproxy.cfg, run as it is apart from its addresses), then
 * the API. Chromium, ignoring the self-signed certificate, signs in, creates a key and revokes
 * it; the API learns the https scheme only through the trusted hop's X-Forwarded-Proto.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import { REPO_ROOT } from '@xt/launcher/config';
import { waitFor } from '@xt/testkit';
import { signIn, startDashboard, USERS, type DashboardFixture } from '../support/dashboard.ts';

let dash: DashboardFixture;
let dir: string;
let tlsPort: number;
const proxies: ChildProcess[] = [];

function startHaproxy(name: string, config: string, env: Record<string, string> = {}) {
  const file = path.join(dir, `${name}.cfg`);
  writeFileSync(file, config);
  const check = spawnSync('haproxy', ['-c', '-q', '-f', file], { env: { ...process.env, ...env } });
  if (check.status !== 0) throw new Error(`${name}: ${String(check.stderr || check.stdout)}`);
  const child = spawn('haproxy', ['-db', '-f', file], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  proxies.push(child);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'xt-tls-'));
  const pem = path.join(dir, 'site.pem');
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    path.join(dir, 'key.pem'),
    '-out',
    path.join(dir, 'cert.pem'),
  ]);
  if (made.status !== 0) throw new Error(`openssl: ${String(made.stderr)}`);
  writeFileSync(
    pem,
    readFileSync(path.join(dir, 'cert.pem'), 'utf8') +
      readFileSync(path.join(dir, 'key.pem'), 'utf8'),
  );

  tlsPort = await freePort();
  const lbPort = await freePort();
  // Two hops before the API: the TLS balancer and the project's HAProxy.
  dash = await startDashboard({ PUBLIC_URL: `https://127.0.0.1:${tlsPort}`, TRUST_PROXY: '2' });
  const apiPort = new URL(dash.api.url).port;

  // The project's config, with this machine's addresses in place of compose's service names.
  const projectConfig = readFileSync(path.join(REPO_ROOT, 'ops/haproxy/haproxy.cfg'), 'utf8')
    .replace('bind :8080', `bind 127.0.0.1:${lbPort}`)
    .split('\n')
    .map((line) =>
      line.trim().startsWith('server-template api ')
        ? `  server api1 127.0.0.1:${apiPort} check`
        : line,
    )
    .join('\n');
  startHaproxy('lb', projectConfig, { LB_TRUSTED_PROXIES: '127.0.0.1' });
  startHaproxy(
    'tls',
    [
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 75s',
      '  timeout server 75s',
      'frontend tls',
      `  bind 127.0.0.1:${tlsPort} ssl crt ${pem}`,
      '  option forwardfor',
      '  http-request set-header X-Forwarded-Proto https',
      '  default_backend lb',
      'backend lb',
      `  server lb 127.0.0.1:${lbPort}`,
    ].join('\n') + '\n',
  );
  await waitFor(async () => {
    const res = await fetch(`http://127.0.0.1:${lbPort}/lb-healthz`).catch(() => undefined);
    return res?.status === 200;
  }, 30_000);
});

afterAll(async () => {
  for (const p of proxies) p.kill();
  await dash?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('signs in, creates a key and revokes it behind a TLS-terminating balancer', async () => {
  const context = await dash.browser.newContext({
    baseURL: `https://127.0.0.1:${tlsPort}`,
    ignoreHTTPSErrors: true,
  });
  try {
    const page = await context.newPage();
    await signIn(page, USERS.acme);
    const [cookie] = await context.cookies();
    expect(cookie?.name).toBe('__Host-xt_session');
    expect(cookie?.secure).toBe(true);

    await page.getByLabel('Label').fill('behind tls');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').inputValue();
    await page.getByRole('button', { name: 'I have saved it' }).click();
    const row = page.getByRole('row', { name: /behind tls/ });
    await row.getByRole('button', { name: 'Revoke behind tls' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke this key?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toMatch(/revoked/i);
    await waitFor(async () => {
      const res = await fetch(`${dash.api.url}/v1/schemas`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return res.status === 401;
    }, 5_000);

    // The API built its absolute links from the scheme the trusted hops passed on.
    const listed = await page.request.get(`/v1/schemas?limit=1`, {
      headers: { authorization: `Bearer ${dash.api.keys.read}` },
    });
    expect(listed.status()).toBe(200);
    expect(listed.headers().link ?? '').toContain(`https://127.0.0.1:${tlsPort}/v1/schemas`);
  } finally {
    await context.close();
  }
});
