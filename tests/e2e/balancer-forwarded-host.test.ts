/**
 * The project's balancer (ops/haproxy/haproxy.cfg) in front of the API, as compose runs it: the
 * API trusts that one hop, so whatever reaches it in X-Forwarded-Host would become the host of
 * its absolute links. The balancer drops the header a client sends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '@xt/api/testing';
import { startProjectBalancer } from '../support/haproxy.ts';

let api: TestApi;
let dir: string;
let lb: Awaited<ReturnType<typeof startProjectBalancer>>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'xt-lb-'));
  api = await startTestApi({ TRUST_PROXY: '1' });
  lb = await startProjectBalancer(dir, api.url);
  for (const n of [1, 2])
    await api.request('POST', '/v1/schemas', {
      json: {
        name: `Balanced ${n}`,
        structure: { type: 'object', properties: { total: { type: 'number' } } },
      },
    });
});

afterAll(async () => {
  lb?.process.kill();
  await api?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("builds list links on the host the client reached, not on the client's X-Forwarded-Host", async () => {
  for (const claimed of ['evil.example', 'a b']) {
    const res = await api.request('GET', '/v1/schemas?limit=1', {
      via: lb.url,
      headers: { 'x-forwarded-host': claimed },
    });
    expect(res.status).toBe(200);
    const link = res.headers.get('link') ?? '';
    expect(link).toContain(`<${lb.url}/v1/schemas?limit=1&page=2>; rel="next"`);
    expect(link).not.toContain('evil.example');
  }
});
