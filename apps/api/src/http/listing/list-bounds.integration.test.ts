/**
 * Page numbers at the ends of what `page` accepts, on every list route: a page past the data is
 * an empty page, a page past MAX_PAGE a 422 naming `page`, never a 500 (a seeded fuzzer found
 * `?page=2147483648` overflowing the query's offset).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  type TestApi,
} from '../../../test/start-api.ts';
import { MAX_LIMIT, MAX_PAGE } from './list-query.ts';

checkResponsesAgainstOpenApi();

let api: TestApi;
let routes: string[];

beforeAll(async () => {
  api = await startTestApi({ WEBHOOK_ALLOWLIST: '127.0.0.1' });
  const structure = { type: 'object', properties: { total: { type: 'number' } } };
  await api.request('POST', '/v1/schemas', { json: { name: 'Paged', structure } });
  const hook = await api.request('POST', '/v1/webhooks', {
    json: { url: 'http://127.0.0.1:9/hook', events: ['extraction.completed'] },
  });
  expect(hook.status).toBe(201);
  routes = [
    '/v1/schemas',
    '/v1/extractions',
    '/v1/webhooks',
    `/v1/webhooks/${hook.body.data.id}/deliveries`,
  ];
});
afterAll(async () => api?.close());

describe('a page past the data', () => {
  it.each([
    ['2147483648', '10'],
    ['2147483648', String(MAX_LIMIT)],
    [String(MAX_PAGE), String(MAX_LIMIT)],
  ])('page=%s&limit=%s is an empty page on every list route', async (page, limit) => {
    for (const route of routes) {
      const res = await api.request('GET', `${route}?page=${page}&limit=${limit}`);
      expect(res.status, route).toBe(200);
      expect(res.body.data.data, route).toEqual([]);
      expect(res.body.data.meta.currentPage, route).toBe(Number(page));
    }
  });

  it('is a 422 naming page once past MAX_PAGE', async () => {
    for (const route of routes) {
      const res = await api.request('GET', `${route}?page=${MAX_PAGE + 1}`);
      expect(res.status, route).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['page']);
    }
  });
});
