/**
 * Behind a TLS-terminating proxy the API sees plain http. PUBLIC_URL tells it the origin people
 * use: the Origin check expects that origin, and the session cookie is Secure, `__Host-`
 * prefixed and Path=/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@xt/accounts';
import { createDb } from '@xt/db';
import { startTestApi, type TestApi } from '../../test/start-api.ts';

const PUBLIC = 'https://extract.example.com';
const PASSWORD = 'a long enough password';
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ PUBLIC_URL: `${PUBLIC}/` });
  const handle = createDb(api.database.url, { max: 1 });
  await createUser(handle.db, { accountName: 'acme', email: 'tls@acme.test', password: PASSWORD });
  await handle.close();
});

afterAll(async () => {
  await api?.close();
});

const signIn = (origin: string) =>
  fetch(`${api.url}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: 'tls@acme.test', password: PASSWORD }),
  });

describe('PUBLIC_URL behind a TLS-terminating proxy', () => {
  it('expects the public origin, and sets a Secure __Host- cookie', async () => {
    // The origin the API would infer from the plain-http request it sees is refused.
    expect((await signIn(api.url)).status).toBe(403);
    const res = await signIn(PUBLIC);
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-xt_session=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);

    // The cookie works for a mutation from the public origin: create a key, revoke it.
    const { csrfToken } = ((await res.json()) as { data: { csrfToken: string } }).data;
    const session = {
      cookie: cookie.split(';')[0]!,
      origin: PUBLIC,
      'x-csrf-token': csrfToken,
    };
    const created = await fetch(`${api.url}/dashboard/api/keys`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'behind tls', scope: 'read' }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const revoked = await fetch(`${api.url}/dashboard/api/keys/${id}`, {
      method: 'DELETE',
      headers: session,
    });
    expect(revoked.status).toBe(200);
  });
});
