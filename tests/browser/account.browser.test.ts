/**
 * The account page in a real browser: change the password (another signed-in browser is
 * signed out by it), then sign out everywhere.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  PASSWORD,
  screenshots,
  signIn,
  startDashboard,
  USERS,
  type DashboardFixture,
} from '../support/dashboard.ts';

const NEW_PASSWORD = 'a brand new long password';
let dash: DashboardFixture;

beforeAll(async () => {
  dash = await startDashboard();
});
afterAll(async () => {
  await dash?.close();
});

it('changes the password, signing out the other browser, then signs out everywhere', async () => {
  const elsewhere = await (await dash.context()).newPage();
  await elsewhere.goto('/dashboard');
  await signIn(elsewhere, USERS.acme);
  await elsewhere.getByText(USERS.acme).waitFor();

  const page = await (await dash.context()).newPage();
  await page.goto('/dashboard');
  await signIn(page, USERS.acme);
  await page.getByRole('link', { name: 'Account' }).click();
  await page.getByRole('heading', { name: 'Account' }).waitFor();

  // A wrong current password is named on its field.
  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  // Checking a password is a deliberately slow hash: on a busy machine it outlasts the poll's
  // default second.
  await expect
    .poll(() => page.getByRole('form', { name: 'Change password' }).textContent(), {
      timeout: 20_000,
    })
    .toMatch(/currentPassword is not this user’s password/);

  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await page
    .getByRole('status')
    .getByText(/Password changed/)
    .waitFor();
  expect(await page.getByRole('status').textContent()).toMatch(/One other session was signed out/);
  await screenshots(page, 'account');

  // The other browser's session is gone: its next request finds it signed out.
  await elsewhere.reload();
  await elsewhere.getByRole('heading', { name: 'Sign in to your account' }).waitFor();

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
  await signIn(page, USERS.acme, NEW_PASSWORD);
  await page.getByText(USERS.acme).waitFor();
});
