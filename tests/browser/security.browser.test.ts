/**
 * The dashboard's security promises, each checked against the running service: cookie
 * attributes, cross-site mutations refused, sign-in throttled, sessions and keys never standing
 * in for each other, accounts isolated, client-written text shown as text, CSP and framing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser } from '@xt/accounts';
import { createDb } from '@xt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  screenshots,
  startDashboard,
  USERS,
  type DashboardFixture,
} from '../support/dashboard.ts';

const GUESSED = 'guessed@acme.test';
let dash: DashboardFixture;
let attacker: Server;
let attackerUrl: string;

beforeAll(async () => {
  dash = await startDashboard({
    SIGNIN_MAX_PER_EMAIL: '3',
    SIGNIN_MAX_PER_EMAIL_GLOBAL: '3',
    SIGNIN_MAX_PER_ADDRESS: '6',
  });
  const handle = createDb(dash.api.database.url, { max: 1 });
  await createUser(handle.db, { accountName: 'acme', email: GUESSED, password: PASSWORD });
  await handle.close();
  // Another origin on the same host: the same *site*, so SameSite cookies do go along.
  attacker = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><form id="f" method="post" enctype="text/plain"
      action="${dash.api.url}/dashboard/api/keys"><input name='{"scope":"write","label":"evil","x":"' value='"}'></form>
      <script>document.getElementById('f').submit()</script>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => attacker?.close(resolve));
  await dash?.close();
});

/** Signs in over HTTP from a given client address (the API trusts loopback proxies). */
async function signInFrom(address: string, email: string, password: string) {
  return fetch(`${dash.api.url}/dashboard/api/session`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: dash.api.url,
      'x-forwarded-for': address,
    },
    body: JSON.stringify({ email, password }),
  });
}

async function sessionCookie(): Promise<string> {
  const res = await signInFrom('10.0.0.1', USERS.acme, PASSWORD);
  expect(res.status).toBe(200);
  return /xt_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
}

describe('session cookie and credentials', () => {
  it('sets an HttpOnly, SameSite=Strict cookie limited to /dashboard, with an expiry', async () => {
    const page = await dash.signedIn('acme');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'xt_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
    expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000);
    // Not over https here, so not Secure; behind https (X-Forwarded-Proto from a trusted proxy) it is.
    expect(cookie?.secure).toBe(false);
    const https = await fetch(`${dash.api.url}/dashboard/api/session`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: dash.api.url.replace('http:', 'https:'),
        'x-forwarded-proto': 'https',
        'x-forwarded-for': '10.0.0.2',
      },
      body: JSON.stringify({ email: USERS.acme, password: PASSWORD }),
    });
    expect(https.headers.get('set-cookie')).toMatch(/; Secure/i);
    expect(https.headers.get('set-cookie')).toMatch(/; HttpOnly/i);
    expect(https.headers.get('set-cookie')).toMatch(/; SameSite=Strict/i);
  });

  it('never takes a session as an API key, nor an API key as a session', async () => {
    const token = await sessionCookie();
    const asKey = await dash.api.request('GET', '/v1/schemas', {
      key: null,
      headers: { cookie: `xt_session=${token}` },
    });
    expect(asKey.status).toBe(401);
    const asBearer = await dash.api.request('GET', '/v1/schemas', { key: token });
    expect(asBearer.status).toBe(401);
    const keyOnDashboard = await fetch(`${dash.api.url}/dashboard/api/keys`, {
      headers: { authorization: `Bearer ${dash.api.keys.write}` },
    });
    expect(keyOnDashboard.status).toBe(401);
  });
});

describe('cross-site requests', () => {
  it('a form posted from another origin on the same host changes nothing', async () => {
    const page = await dash.signedIn('acme');
    const before = await page.evaluate(() =>
      fetch('/dashboard/api/keys').then((r) => r.json() as Promise<{ data: unknown[] }>),
    );
    const response = page.waitForResponse((r) => r.url().endsWith('/dashboard/api/keys'));
    await page.goto(attackerUrl);
    const refused = await response;
    expect(refused.status()).toBe(403);
    // The cookie did go along (same site), so only the origin check stood in the way.
    expect(await refused.request().headerValue('cookie')).toMatch(/xt_session=/);
    await page.goto('/dashboard/keys');
    const after = await page.evaluate(() =>
      fetch('/dashboard/api/keys').then((r) => r.json() as Promise<{ data: unknown[] }>),
    );
    expect(after.data).toHaveLength(before.data.length);
  });

  it('a same-origin mutation without the CSRF token is refused', async () => {
    const token = await sessionCookie();
    const res = await fetch(`${dash.api.url}/dashboard/api/keys`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: dash.api.url,
        cookie: `xt_session=${token}`,
      },
      body: JSON.stringify({ scope: 'write' }),
    });
    expect(res.status).toBe(403);
  });
});

describe('sign-in throttling', () => {
  it('stops guessing one email from rotating addresses, even with the right password', async () => {
    for (let i = 0; i < 3; i++)
      expect((await signInFrom(`10.1.0.${i}`, GUESSED, 'wrong password!!')).status).toBe(401);
    const blocked = await signInFrom('10.1.0.9', GUESSED, PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('stops one address trying many emails', async () => {
    for (let i = 0; i < 6; i++)
      expect(
        (await signInFrom('10.2.0.1', `nobody${i}@example.test`, 'wrong password!!')).status,
      ).toBe(401);
    expect((await signInFrom('10.2.0.1', 'someone@example.test', 'wrong password!!')).status).toBe(
      429,
    );
    // Another address is unaffected.
    expect((await signInFrom('10.2.0.2', 'someone@example.test', 'wrong password!!')).status).toBe(
      401,
    );
  });
});

describe('what a page shows', () => {
  it('renders client-written markup as text, runs none of it, and sends CSP and frame protection', async () => {
    const markup = '<img src=x onerror="window.__pwned=1"><b>bold</b>';
    const page = await dash.signedIn('acme');
    await page.getByLabel('Label').fill(markup);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'I have saved it' }).click();
    const cell = page.getByRole('cell', { name: markup, exact: true });
    await cell.waitFor();
    expect(await cell.innerText()).toBe(markup);
    expect(await page.locator('main img, main b').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await screenshots(page, 'keys-markup-label');

    const res = await fetch(`${dash.api.url}/dashboard/keys`);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('shows one account nothing of another', async () => {
    const page = await dash.signedIn('globex');
    await page.getByRole('heading', { name: 'Your keys' }).waitFor();
    const keys = await page.evaluate(() =>
      fetch('/dashboard/api/keys').then((r) => r.json() as Promise<{ data: { id: string }[] }>),
    );
    const acmeKeys = await fetch(`${dash.api.url}/dashboard/api/keys`, {
      headers: { cookie: `xt_session=${await sessionCookie()}` },
    }).then((r) => r.json() as Promise<{ data: { id: string }[] }>);
    const theirs = new Set(acmeKeys.data.map((k) => k.id));
    expect(keys.data.some((k) => theirs.has(k.id))).toBe(false);
    // Revoking another account's key is "not found", and the key keeps working.
    const csrf = await page.evaluate(() =>
      fetch('/dashboard/api/session').then(
        (r) => r.json() as Promise<{ data: { csrfToken: string } }>,
      ),
    );
    const status = await page.evaluate(
      ([id, token]) =>
        fetch(`/dashboard/api/keys/${id}`, {
          method: 'DELETE',
          headers: { 'x-csrf-token': token },
        }).then((r) => r.status),
      [acmeKeys.data[0]?.id ?? '', csrf.data.csrfToken] as const,
    );
    expect(status).toBe(404);
    expect((await dash.api.request('GET', '/v1/schemas')).status).toBe(200);
  });
});
