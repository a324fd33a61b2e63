/**
 * The dashboard as it is usually deployed: a TLS-terminating load balancer in front, then the
 * project's own HAProxy (ops/haproxy/haproxy.cfg, run as it is apart from its addresses), then
 * the API. Chromium, ignoring the self-signed certificate, signs in, creates a key and revokes
 * it; the API learns the https scheme only through the trusted hop's X-Forwarded-Proto.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import { waitFor } from '@xt/testkit';
import { signIn, startDashboard, USERS, type DashboardFixture } from '../support/dashboard.ts';
import { startHaproxy, startProjectBalancer } from '../support/haproxy.ts';

let dash: DashboardFixture;
let dir: string;
let tlsPort: number;
const proxies: ChildProcess[] = [];

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
  // Two hops before the API: the TLS balancer and the project's HAProxy.
  dash = await startDashboard({ PUBLIC_URL: `https://127.0.0.1:${tlsPort}`, TRUST_PROXY: '2' });
  const lb = await startProjectBalancer(dir, dash.api.url, { LB_TRUSTED_PROXIES: '127.0.0.1' });
  proxies.push(lb.process);
  proxies.push(
    startHaproxy(
      dir,
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
        `  server lb 127.0.0.1:${lb.port}`,
      ].join('\n') + '\n',
    ),
  );
  // The TLS balancer is up once it accepts connections.
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(tlsPort, '127.0.0.1');
        socket.on('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    30_000,
  );
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
