/**
 * Webhook endpoint management: the secret shown only on creation and rotation, account
 * isolation, scopes, and a 422 naming the field for each bad value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponsesAgainstOpenApi, startTestApi, type TestApi } from '../../test/start-api.ts';

checkResponsesAgainstOpenApi();

let api: TestApi;
// A public address literal: accepted without DNS, and never contacted by these tests.
const PUBLIC_URL = 'https://93.184.215.14/hooks/xt';

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function create(body: Record<string, unknown>, key?: string) {
  return api.request('POST', '/v1/webhooks', { json: body, ...(key ? { key } : {}) });
}

describe('webhook endpoints', () => {
  it('creates an endpoint and shows its secret only on creation and rotation', async () => {
    const res = await create({
      url: PUBLIC_URL,
      events: ['extraction.completed'],
      description: 'billing',
    });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(Object.keys(created).sort()).toEqual(
      ['createdAt', 'description', 'enabled', 'events', 'id', 'secret', 'url'].sort(),
    );
    expect(created).toMatchObject({
      url: PUBLIC_URL,
      events: ['extraction.completed'],
      description: 'billing',
      enabled: true,
    });
    expect(res.headers.get('location')).toBe(`/v1/webhooks/${created.id}`);
    const secret = created.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const got = await api.request('GET', `/webhooks/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();
    expect(got.body.data).toEqual({ ...created, secret: undefined });

    const listed = await api.request('GET', '/v1/webhooks?limit=5');
    expect(listed.status).toBe(200);
    expect(listed.body.data.meta).toMatchObject({ total: 1, perPage: 5, currentPage: 1 });
    expect(listed.body.data.data[0].secret).toBeUndefined();

    const rotated = await api.request('POST', `/v1/webhooks/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(secret);
  });

  it('updates url, events, description and enabled, and deletes', async () => {
    const id = (await create({ url: PUBLIC_URL, events: ['extraction.failed'] })).body.data.id;
    const patched = await api.request('PATCH', `/v1/webhooks/${id}`, {
      json: {
        url: 'http://93.184.215.14:8080/other',
        events: ['extraction.completed', 'extraction.failed', 'extraction.completed'],
        description: null,
        enabled: false,
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      url: 'http://93.184.215.14:8080/other',
      events: ['extraction.completed', 'extraction.failed'],
      description: null,
      enabled: false,
    });
    const enabledOnly = await api.request('PATCH', `/webhooks/${id}`, { json: { enabled: true } });
    expect(enabledOnly.body.data).toMatchObject({ enabled: true, url: patched.body.data.url });

    expect((await api.request('DELETE', `/v1/webhooks/${id}`)).status).toBe(200);
    expect((await api.request('GET', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await api.request('DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
  });

  it("hides another account's endpoints (404) and keeps read keys read-only", async () => {
    const id = (await create({ url: PUBLIC_URL, events: ['extraction.completed'] })).body.data.id;
    const other = api.keys.other;
    for (const [method, path, json] of [
      ['GET', `/v1/webhooks/${id}`, undefined],
      ['PATCH', `/v1/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/v1/webhooks/${id}`, undefined],
      ['POST', `/v1/webhooks/${id}/rotate-secret`, undefined],
      ['GET', `/v1/webhooks/${id}/deliveries`, undefined],
    ] as const) {
      const res = await api.request(method, path, { key: other, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ status: false, code: 'NOT_FOUND' });
    }
    const theirs = await api.request('GET', '/v1/webhooks', { key: other });
    expect(theirs.body.data.data.map((e: { id: string }) => e.id)).not.toContain(id);
    expect((await api.request('GET', `/v1/webhooks/${id}`)).body.data.enabled).toBe(true);

    const read = api.keys.read;
    expect((await api.request('GET', `/v1/webhooks/${id}`, { key: read })).status).toBe(200);
    const refused = await create({ url: PUBLIC_URL, events: ['extraction.failed'] }, read);
    expect(refused.status).toBe(403);
    expect((await api.request('GET', '/v1/webhooks', { key: null })).status).toBe(401);
  });

  it.each([
    [{ events: ['extraction.completed'] }, 'url', /required/],
    [{ url: 42, events: ['extraction.completed'] }, 'url', /string/],
    [{ url: 'ftp://93.184.215.14/x', events: ['extraction.completed'] }, 'url', /http/],
    [{ url: 'not a url', events: ['extraction.completed'] }, 'url', /http/],
    [{ url: 'http://127.0.0.1:9/hook', events: ['extraction.completed'] }, 'url', /non-public/],
    [{ url: 'http://10.1.2.3/hook', events: ['extraction.completed'] }, 'url', /non-public/],
    [
      { url: 'http://[::ffff:192.168.0.1]/', events: ['extraction.completed'] },
      'url',
      /non-public/,
    ],
    [{ url: 'http://localhost:8080/', events: ['extraction.completed'] }, 'url', /local/],
    [{ url: 'https://u:p@93.184.215.14/', events: ['extraction.completed'] }, 'url', /credentials/],
    [{ url: 'https://no-such-host.invalid/', events: ['extraction.completed'] }, 'url', /resolved/],
    [{ url: PUBLIC_URL }, 'events', /required/],
    [{ url: PUBLIC_URL, events: [] }, 'events', /at least one/],
    [{ url: PUBLIC_URL, events: 'extraction.completed' }, 'events', /array/],
    [{ url: PUBLIC_URL, events: ['extraction.started'] }, 'events[0]', /one of/],
    [{ url: PUBLIC_URL, events: ['extraction.completed', 7] }, 'events[1]', /one of/],
    [{ url: PUBLIC_URL, events: ['extraction.failed'], description: 5 }, 'description', /string/],
    [
      { url: PUBLIC_URL, events: ['extraction.failed'], description: 'x'.repeat(1001) },
      'description',
      /at most/,
    ],
    [
      { url: PUBLIC_URL, events: ['extraction.failed'], enabled: 'yes' },
      'enabled',
      /true or false/,
    ],
  ])('refuses %j with a 422 on %s', async (body, field, message) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.status).toBe(false);
    expect(res.body.errors).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it('reports every bad field at once, and bad PATCH bodies', async () => {
    const res = await create({ url: 'file:///etc/passwd', events: [] });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'events',
      'url',
    ]);
    expect((await api.request('POST', '/v1/webhooks', { json: [1] })).status).toBe(422);
    const bad = await api.request('POST', '/v1/webhooks', {
      body: '{"url":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);

    const id = (await create({ url: PUBLIC_URL, events: ['extraction.completed'] })).body.data.id;
    const empty = await api.request('PATCH', `/v1/webhooks/${id}`, { json: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].field).toBe('body');
    const badPatch = await api.request('PATCH', `/v1/webhooks/${id}`, {
      json: { url: 'http://192.168.1.1/', events: [], enabled: 1 },
    });
    expect(badPatch.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'enabled',
      'events',
      'url',
    ]);
    expect((await api.request('GET', '/v1/webhooks/not-a-uuid')).status).toBe(404);
    expect((await api.request('GET', '/v1/webhooks?limit=101')).body.errors[0].field).toBe('limit');
  });
});
