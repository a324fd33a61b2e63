/**
 * HTTP semantics of the resource routes that clients and browsers rely on: 405 with `Allow`
 * for a method a route lacks (OPTIONS and CORS pre-flights included, before authentication), a
 * 422 for a query parameter a list does not take, and RFC 8288 `Link` headers on list pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  type TestApi,
} from '../../../test/start-api.ts';

checkResponsesAgainstOpenApi();

let api: TestApi;
const id = '6f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a';
const structure = { type: 'object', properties: { total: { type: 'number' } } };

beforeAll(async () => {
  api = await startTestApi();
  for (const n of [1, 2, 3])
    await api.request('POST', '/v1/schemas', { json: { name: `Linked ${n}`, structure } });
});

afterAll(async () => {
  await api?.close();
});

describe('a method the route does not have', () => {
  it('is 405 with Allow and the envelope, with or without a key and /v1', async () => {
    for (const [path, key] of [
      ['/v1/extractions', undefined],
      ['/extractions', null],
      ['/V1/Extractions/', 'sk_live_unknown'],
    ] as const) {
      const res = await api.request('PUT', path, { key });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
      expect(res.body).toEqual({
        status: false,
        code: 'METHOD_NOT_ALLOWED',
        message: 'PUT is not supported here; allowed methods: GET, HEAD, POST.',
      });
    }
    const one = await api.request('POST', `/v1/schemas/${id}`);
    expect([one.status, one.headers.get('allow')]).toEqual([405, 'DELETE, GET, HEAD, PATCH, PUT']);
    const health = await api.request('DELETE', '/healthz', { key: null });
    expect([health.status, health.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('leaves unknown paths 404 and known methods to their handlers', async () => {
    expect((await api.request('PUT', '/v1/nothing')).status).toBe(404);
    expect((await api.request('GET', '/v1/extractionz?limit=5')).body).toEqual({
      status: false,
      code: 'NOT_FOUND',
      message: 'No route GET /v1/extractionz.',
    });
    expect((await api.request('PUT', '/v1/schemas/x/y')).status).toBe(404);
    expect((await api.request('PUT', '/v1/healthz', { key: null })).status).toBe(404);
    expect((await api.request('GET', '/v1/extractions', { key: null })).status).toBe(401);
    expect((await api.request('HEAD', '/v1/schemas')).status).toBe(200);
  });

  it('includes OPTIONS: a browser pre-flight gets 405 with Allow, not 401, and no CORS grant', async () => {
    const res = await api.request('OPTIONS', `/v1/extractions/${id}`, {
      key: null,
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.body).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      message: expect.stringContaining('no CORS pre-flight is served'),
    });
  });
});

describe('a query parameter a list does not take', () => {
  it('is a 422 naming it, with the spelling meant when it is close', async () => {
    const res = await api.request('GET', `/v1/extractions?schemaId=${id}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        field: 'schemaId',
        message: expect.stringMatching(
          /^Unknown query parameter "schemaId"\. Did you mean "schema_id"\?/,
        ),
      },
    ]);
    const schemas = await api.request('GET', `/v1/schemas?schema_id=${id}&page=1`);
    expect(schemas.status).toBe(422);
    expect(schemas.body.errors.map((e: { field: string }) => e.field)).toEqual(['schema_id']);
    const deliveries = await api.request('GET', `/v1/webhooks/${id}/deliveries?per_page=5`);
    expect(deliveries.status).toBe(422);
    expect((await api.request('GET', `/v1/extractions?schema_id=${id}`)).status).toBe(200);
  });
});

describe('list pages', () => {
  /** `<url>; rel="next", …` → { next: url, … } (URLs hold no ", ": it would be escaped). */
  const links = (header: string | null) =>
    Object.fromEntries(
      (header ?? '')
        .split(', ')
        .filter(Boolean)
        .map((part) => {
          const [url = '', rel = ''] = part.split('; rel=');
          return [rel.slice(1, -1), url.slice(1, -1)];
        }),
    );

  it('link the first, previous, next and last pages with absolute URLs, meta unchanged', async () => {
    const res = await api.request('GET', '/v1/schemas?search=Linked&limit=1&page=2');
    expect(res.status).toBe(200);
    expect(res.body.data.meta).toMatchObject({
      total: 3,
      currentPage: 2,
      nextPageUrl: '/?page=3',
      previousPageUrl: '/?page=1',
    });
    expect(links(res.headers.get('link'))).toEqual({
      first: `${api.url}/v1/schemas?search=Linked&limit=1&page=1`,
      prev: `${api.url}/v1/schemas?search=Linked&limit=1&page=1`,
      next: `${api.url}/v1/schemas?search=Linked&limit=1&page=3`,
      last: `${api.url}/v1/schemas?search=Linked&limit=1&page=3`,
    });
    // Following `next` gives the next page.
    const next = links(res.headers.get('link')).next!;
    const page3 = await api.request('GET', next.slice(api.url.length));
    expect(page3.body.data.meta.currentPage).toBe(3);
    expect(links(page3.headers.get('link'))).not.toHaveProperty('next');
    const first = await api.request('GET', '/schemas?search=Linked');
    expect(links(first.headers.get('link'))).toEqual({
      first: `${api.url}/schemas?search=Linked&page=1`,
      last: `${api.url}/schemas?search=Linked&page=1`,
    });
  });

  it('use the forwarded scheme and host only from a trusted proxy', async () => {
    const forwarded = {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'api.example.com',
    };
    // The test client is on loopback, which TRUST_PROXY trusts by default.
    const trusted = await api.request('GET', '/v1/webhooks?page=2', { headers: forwarded });
    expect(links(trusted.headers.get('link')).prev).toBe(
      'https://api.example.com/v1/webhooks?page=1',
    );
    const untrustingApi = await startTestApi({ TRUST_PROXY: 'false' });
    try {
      const untrusted = await untrustingApi.request('GET', '/v1/webhooks?page=2', {
        headers: forwarded,
      });
      expect(links(untrusted.headers.get('link')).prev).toBe(
        `${untrustingApi.url}/v1/webhooks?page=1`,
      );
    } finally {
      await untrustingApi.close();
    }
  });

  it('are relative, not a 500, when the trusted proxy forwards a host that is not one', async () => {
    for (const host of ['a b', 'evil.example/path', 'user@evil.example']) {
      const res = await api.request('GET', '/v1/webhooks?page=2', {
        headers: { 'x-forwarded-host': host },
      });
      expect(res.status).toBe(200);
      expect(links(res.headers.get('link')).prev).toBe('/v1/webhooks?page=1');
    }
  });

  it('use PUBLIC_URL when it is set, whatever host a proxy forwards', async () => {
    const behind = await startTestApi({ PUBLIC_URL: 'https://extract.example.com' });
    try {
      const res = await behind.request('GET', '/v1/webhooks?page=2', {
        headers: { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'evil.example' },
      });
      expect(links(res.headers.get('link')).prev).toBe(
        'https://extract.example.com/v1/webhooks?page=1',
      );
    } finally {
      await behind.close();
    }
  });
});
