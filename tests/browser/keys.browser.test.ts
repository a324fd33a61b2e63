/**
 * The key section in a real browser: sign in, make a key, use it on the API, revoke it and see
 * the API refuse it, sign out.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  screenshots,
  signIn,
  startDashboard,
  USERS,
  type DashboardFixture,
} from '../support/dashboard.ts';

let dash: DashboardFixture;

beforeAll(async () => {
  dash = await startDashboard();
});
afterAll(async () => {
  await dash?.close();
});

it('signs in, creates a key that works on the API, revokes it, and signs out', async () => {
  const page = await (await dash.context()).newPage();
  await page.goto('/dashboard');
  await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
  await screenshots(page, 'sign-in');

  // A wrong password is refused with a message, and the page stays on sign-in.
  await page.getByLabel('Email').fill(USERS.acme);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect
    .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
    .toMatch(/Wrong email or password/);

  await signIn(page, USERS.acme);
  await page.getByText(USERS.acme).waitFor();
  await page.getByLabel('Label').fill('billing job');
  await page.getByLabel('Scope').selectOption('write');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.getByTestId('new-key').inputValue();
  expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
  await page.getByRole('button', { name: 'Copy' }).waitFor();
  await screenshots(page, 'keys-created');

  // The key works on the API, and its use shows in the list.
  const used = await dash.api.request('GET', '/v1/schemas', { key });
  expect(used.status).toBe(200);
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await page.getByTestId('new-key').waitFor({ state: 'detached' });
  await page.reload();
  const row = page.getByRole('row', { name: /billing job/ });
  await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain(key.slice(0, 14));
  expect(await row.textContent()).not.toContain('never');
  await screenshots(page, 'keys');

  // Revoke, with a confirmation; the API refuses the key at once.
  await row.getByRole('button', { name: 'Revoke billing job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
  await dialog.waitFor();
  await screenshots(page, 'keys-revoke-confirm');
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('revoked');
  const refused = await dash.api.request('GET', '/v1/schemas', { key });
  expect(refused.status).toBe(401);

  // Signing out ends the session on the server: the old cookie opens nothing any more.
  const cookies = await page.context().cookies();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
  const session = cookies.find((c) => c.name === 'xt_session');
  expect(session).toBeDefined();
  const after = await fetch(`${dash.api.url}/dashboard/api/keys`, {
    headers: { cookie: `xt_session=${session?.value}` },
  });
  expect(after.status).toBe(401);
});
