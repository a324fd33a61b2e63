/**
 * A dashboard user's own safety controls: changing the password (which ends every other
 * session, so whoever knew the old one is out) and signing out everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@xt/accounts';
import { createDb } from '@xt/db';
import { startTestApi, type TestApi } from '../../test/start-api.ts';

const EMAIL = 'owner@acme.test';
const FIRST = 'the first long password';
const SECOND = 'a second long password';
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  const handle = createDb(api.database.url, { max: 1 });
  await createUser(handle.db, { accountName: 'acme', email: EMAIL, password: FIRST });
  await handle.close();
});

afterAll(async () => {
  await api?.close();
});

/** The headers a signed-in browser sends with a mutation. */
type Session = Record<'cookie' | 'origin' | 'x-csrf-token', string>;

async function signIn(password: string): Promise<Session | number> {
  const res = await fetch(`${api.url}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: api.url },
    body: JSON.stringify({ email: EMAIL, password }),
  });
  if (res.status !== 200) return res.status;
  const { csrfToken } = ((await res.json()) as { data: { csrfToken: string } }).data;
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, origin: api.url, 'x-csrf-token': csrfToken };
}

async function session(password: string): Promise<Session> {
  const signed = await signIn(password);
  if (typeof signed === 'number') throw new Error(`sign-in answered ${signed}`);
  return signed;
}

const alive = async (s: Session) =>
  (await fetch(`${api.url}/dashboard/api/session`, { headers: s })).status === 200;

const changePassword = (s: Session, currentPassword: string, newPassword: string) =>
  fetch(`${api.url}/dashboard/api/password`, {
    method: 'PUT',
    headers: { ...s, 'content-type': 'application/json' },
    body: JSON.stringify({ currentPassword, newPassword }),
  });

describe('the dashboard user’s own sessions', () => {
  it('changes the password given the current one, and ends every other session', async () => {
    const here = await session(FIRST);
    const elsewhere = await session(FIRST);

    const wrong = await changePassword(here, 'not my password at all', SECOND);
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({
      errors: [{ field: 'currentPassword' }],
      code: 'VALIDATION_FAILED',
    });
    const short = await changePassword(here, FIRST, 'short');
    expect(short.status).toBe(422);
    expect(await short.json()).toMatchObject({ errors: [{ field: 'newPassword' }] });
    expect(await alive(elsewhere)).toBe(true);

    const changed = await changePassword(here, FIRST, SECOND);
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ data: { endedSessions: 1 } });
    expect(await alive(here)).toBe(true);
    expect(await alive(elsewhere)).toBe(false);
    expect(await signIn(FIRST)).toBe(401);
    expect(typeof (await signIn(SECOND))).toBe('object');

    // Without the CSRF token (another site's form), nothing changes.
    const forged = await fetch(`${api.url}/dashboard/api/password`, {
      method: 'PUT',
      headers: { cookie: here.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ currentPassword: SECOND, newPassword: FIRST }),
    });
    expect(forged.status).toBe(403);
    expect(await signIn(FIRST)).toBe(401);
  });

  it('signs out everywhere: every session ends, this one included', async () => {
    const here = await session(SECOND);
    const elsewhere = await session(SECOND);
    const res = await fetch(`${api.url}/dashboard/api/sessions`, {
      method: 'DELETE',
      headers: here,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: {} });
    expect(res.headers.get('set-cookie') ?? '').toMatch(/xt_session=;/);
    expect(await alive(here)).toBe(false);
    expect(await alive(elsewhere)).toBe(false);
  });
});
