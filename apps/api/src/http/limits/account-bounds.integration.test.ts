/**
 * Per-account bounds (docs/security.md#fair-use): keys, webhook endpoints, schemas and unfinished
 * extractions each stop at their setting with 429 TOO_MANY_ACTIVE and Retry-After, and requests
 * are counted per account as well as per key, so another key buys no more. Another account is
 * never affected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@xt/accounts';
import { createDb } from '@xt/db';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  type TestApi,
} from '../../../test/start-api.ts';

checkResponsesAgainstOpenApi();

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({
    MAX_SCHEMAS_PER_ACCOUNT: '2',
    MAX_WEBHOOKS_PER_ACCOUNT: '1',
    MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT: '2',
    MAX_KEYS_PER_ACCOUNT: '3',
    WEBHOOK_ALLOWLIST: '127.0.0.1',
  });
});

afterAll(async () => {
  await api?.close();
});

const schemaBody = (name: string) => ({
  name,
  structure: { type: 'object', properties: { a: { type: 'string' } } },
});

function expectTooManyActive(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe('TOO_MANY_ACTIVE');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('per-account bounds', () => {
  it('stops schemas, then extractions, at their bound; another account goes on', async () => {
    const first = await api.request('POST', '/v1/schemas', { json: schemaBody('one') });
    expect(first.status).toBe(201);
    expect((await api.request('POST', '/v1/schemas', { json: schemaBody('two') })).status).toBe(
      201,
    );
    const third = await api.request('POST', '/v1/schemas', { json: schemaBody('three') });
    expectTooManyActive(third);
    expect(third.body.message).toMatch(/2 schemas/);
    const theirs = await api.request('POST', '/v1/schemas', {
      json: schemaBody('other'),
      key: api.keys.other,
    });
    expect(theirs.status).toBe(201);

    // No worker runs: every extraction stays pending.
    const create = (key?: string, schemaId = first.body.data.id as string) =>
      api.request('POST', '/v1/extractions', {
        json: { schema_id: schemaId, type: 'text', source: 'Total 12' },
        headers: { prefer: 'respond-async' },
        ...(key ? { key } : {}),
      });
    expect((await create()).status).toBe(202);
    expect((await create()).status).toBe(202);
    const past = await create();
    expectTooManyActive(past);
    expect(past.body.message).toMatch(/2 extractions pending or processing/);
    expect((await create(api.keys.other, theirs.body.data.id as string)).status).toBe(202);
  });

  it('stops webhook endpoints at their bound', async () => {
    const hook = (n: number) =>
      api.request('POST', '/v1/webhooks', {
        json: { url: `http://127.0.0.1:9/hook-${n}`, events: ['extraction.completed'] },
      });
    expect((await hook(1)).status).toBe(201);
    expectTooManyActive(await hook(2));
  });

  it('stops dashboard key creation at the bound of active keys, revoked ones not counted', async () => {
    // acme already holds two keys (write and read) from the test set-up.
    const handle = createDb(api.database.url, { max: 1 });
    await createUser(handle.db, {
      accountName: 'acme',
      email: 'keys@acme.test',
      password: 'a long enough password',
    });
    await handle.close();
    const signIn = await fetch(`${api.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: api.url },
      body: JSON.stringify({ email: 'keys@acme.test', password: 'a long enough password' }),
    });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { csrfToken } = ((await signIn.json()) as { data: { csrfToken: string } }).data;
    const session = { cookie, origin: api.url, 'x-csrf-token': csrfToken };
    const createKey = () =>
      fetch(`${api.url}/dashboard/api/keys`, {
        method: 'POST',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'more', scope: 'write' }),
      });
    const third = await createKey();
    expect(third.status).toBe(201);
    const fourth = await createKey();
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as { code: string }).code).toBe('TOO_MANY_ACTIVE');
    const id = ((await third.json()) as { data: { id: string } }).data.id;
    const revoked = await fetch(`${api.url}/dashboard/api/keys/${id}`, {
      method: 'DELETE',
      headers: session,
    });
    expect(revoked.status).toBe(200);
    expect((await createKey()).status).toBe(201);
  });
});

describe('per-account rate limit', () => {
  let limited: TestApi;
  beforeAll(async () => {
    limited = await startTestApi({ RATE_LIMIT_MAX: '100', RATE_LIMIT_ACCOUNT_MAX: '3' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('counts every key of the account together', async () => {
    const list = (key: string) => limited.request('GET', '/v1/schemas', { key });
    expect((await list(limited.keys.write)).status).toBe(200);
    expect((await list(limited.keys.write)).status).toBe(200);
    expect((await list(limited.keys.read)).status).toBe(200);
    // The read key has made one request of its hundred, but its account has made three.
    const fourth = await list(limited.keys.read);
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('RATE_LIMITED');
    expect((await list(limited.keys.other)).status).toBe(200);
  });
});
