import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowlist } from './allowlist.ts';
import { safePost } from './safe-post.ts';

let server: Server;
let port: number;
const bodies: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(req.url === '/moved' ? 302 : 204, { location: '/elsewhere' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const post = (url: string, lookup: string, allow = `127.0.0.1:${port}`) =>
  safePost(url, {
    allowlist: parseAllowlist(allow),
    body: '{"a":1}',
    headers: { 'content-type': 'application/json' },
    timeoutMs: 5_000,
    lookup: () => Promise.resolve([{ address: lookup, family: 4 }]),
  });

describe('safePost', () => {
  it('posts to an allowed place and reports the status, not following redirects', async () => {
    await expect(post(`http://hooks.example.test:${port}/in`, '127.0.0.1')).resolves.toEqual({
      status: 204,
    });
    expect(bodies).toContain('{"a":1}');
    await expect(post(`http://hooks.example.test:${port}/moved`, '127.0.0.1')).resolves.toEqual({
      status: 302,
    });
  });

  it('refuses a name that now resolves to a private address', async () => {
    const before = bodies.length;
    await expect(post(`http://hooks.example.test:${port}/in`, '10.0.0.7')).rejects.toMatchObject({
      code: 'SOURCE_FORBIDDEN',
    });
    await expect(
      post(`http://hooks.example.test:${port}/in`, '127.0.0.1', ''),
    ).rejects.toMatchObject({ code: 'SOURCE_FORBIDDEN' });
    expect(bodies.length).toBe(before);
  });
});
