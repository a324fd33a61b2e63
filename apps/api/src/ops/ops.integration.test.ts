import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponsesAgainstOpenApi, startTestApi, type TestApi } from '../../test/start-api.ts';

checkResponsesAgainstOpenApi();

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    METRICS_TOKEN: 'metrics-secret',
    ADMIN_USER: 'ops',
    ADMIN_PASSWORD: 'pa55',
    ADMIN_AUTH_MAX_FAILURES: '5',
  });
});
afterAll(async () => {
  await api?.close();
});

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('operational routes', () => {
  it('guards /metrics with METRICS_TOKEN when it is set', async () => {
    const without = await api.request('GET', '/metrics', { key: null });
    expect(without.status).toBe(401);
    expect(without.body.status).toBe(false);
    const wrong = await api.request('GET', '/metrics', { key: 'nope' });
    expect(wrong.status).toBe(401);
    const right = await api.request('GET', '/metrics', { key: 'metrics-secret' });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(right.text).toMatch(/extraction_queue_jobs\{state="waiting"\} 0/);
  });

  it('labels request metrics by route template, never by the path with its ids', async () => {
    const id = '7f3c2a9e-1b4d-4c8e-9a6f-0d2e5b8c1a37';
    expect((await api.request('GET', `/v1/extractions/${id}`)).status).toBe(404);
    expect((await api.request('GET', `/extractions/${id}`, { key: null })).status).toBe(401);
    const scraped = await api.request('GET', '/metrics', { key: 'metrics-secret' });
    expect(scraped.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/extractions\/:id",status="404"\} 1/,
    );
    // Neither the answered request nor the one refused before routing put the id in a label.
    expect(scraped.text).not.toContain(id);
  });

  it('opens no series for case variants of a path: every label is a lower-case template', async () => {
    const paths = ['/DOCS/', '/Docs/swagger-ui.css', '/DASHBOARD/login', '/Admin/Queues'];
    for (const path of paths) await (await fetch(`${api.url}${path}`)).text();
    const scraped = await api.request('GET', '/metrics', { key: 'metrics-secret' });
    const routes = [
      ...scraped.text.matchAll(/http_request_duration_seconds_count\{[^}]*route="([^"]*)"/g),
    ].map((m) => m[1]);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route).toBe(route?.toLowerCase());
  });

  it('serves the queue dashboard behind basic auth', async () => {
    const without = await api.request('GET', '/admin/queues', { key: null });
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await api.request('GET', '/admin/queues', {
      key: null,
      headers: { authorization: basic('ops', 'x') },
    });
    expect(wrong.status).toBe(401);
    const right = await api.request('GET', '/admin/queues', {
      key: null,
      headers: { authorization: basic('ops', 'pa55') },
    });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('shows the queues read-only unless told otherwise', async () => {
    const res = await fetch(`${api.url}/admin/queues/api/queues`, {
      headers: { authorization: basic('ops', 'pa55') },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { queues: { readOnlyMode: boolean }[] };
    expect(body.queues.length).toBeGreaterThan(0);
    for (const q of body.queues) expect(q.readOnlyMode).toBe(true);
  });

  it('stops checking passwords from an address after too many wrong ones', async () => {
    const attempt = (password: string) =>
      fetch(`${api.url}/admin/queues`, { headers: { authorization: basic('ops', password) } });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await attempt(`guess-${i}`)).status);
    // The bound is five failures, some already spent by the tests above: wrong passwords are
    // answered 401 until then, and 429 from then on.
    const firstRefused = statuses.indexOf(429);
    expect(firstRefused).toBeGreaterThan(0);
    expect(statuses.slice(0, firstRefused).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(firstRefused).every((s) => s === 429)).toBe(true);
    // Even the right password is not checked until the window passes.
    expect((await attempt('pa55')).status).toBe(429);
  });

  it('has no dashboard when no credentials are configured', async () => {
    const plain = await startTestApi();
    try {
      expect((await plain.request('GET', '/admin/queues', { key: null })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('serves Swagger UI from the package, without a key', async () => {
    const docs = await api.request('GET', '/docs', { key: null });
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger-ui-bundle.js');
    const asset = await api.request('GET', '/docs/assets/swagger-ui-bundle.js', { key: null });
    expect(asset.status).toBe(200);
  });
});
