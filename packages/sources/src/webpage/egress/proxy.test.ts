import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionFailure } from '@xt/contract';
import { parseAllowlist, resolveAndCheck, type LookupAll } from '@xt/fetcher';
import { parseAuthority, startFilteringProxy, type FilteringProxy } from './proxy.ts';
import type { ProxySession } from './proxy-sessions.ts';

/** `pinned.test` resolves to the allowed upstream; `rebind.test` to the canary. */
let upstreamPort = 0;
let canaryPort = 0;
const lookup: LookupAll = (host) => {
  if (host === 'pinned.test' || host === 'rebind.test') {
    return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  }
  return Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
};

let upstream: http.Server;
let canary: net.Server;
let canaryConnections = 0;
let proxy: FilteringProxy;
let proxyPort = 0;
const seenHosts: string[] = [];

const basic = (s: ProxySession): string =>
  `Basic ${Buffer.from(`${s.username}:${s.password}`).toString('base64')}`;

function viaProxy(
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxyPort,
      method: 'GET',
      path: target,
      headers,
      agent: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          headers: res.headers,
        }),
      );
      res.on('error', reject);
      res.on('aborted', () =>
        resolve({ status: res.statusCode ?? 0, body: 'ABORTED', headers: res.headers }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(
  authority: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxyPort,
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
    });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.on('response', (res) => resolve({ status: res.statusCode ?? 0, socket: res.socket }));
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    seenHosts.push(req.headers.host ?? '');
    if (req.url === '/big') {
      res.end(Buffer.alloc(256 * 1024, 'x'));
      return;
    }
    res.writeHead(302, { location: '/elsewhere', 'x-upstream': 'yes' }).end('upstream body');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
  canary = net.createServer((socket) => {
    canaryConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryPort = (canary.address() as AddressInfo).port;
  const allowlist = parseAllowlist(`127.0.0.1:${upstreamPort}`);
  proxy = await startFilteringProxy({
    check: (host, port) => resolveAndCheck(host, port, allowlist, { lookup }),
  });
  proxyPort = Number(new URL(proxy.server).port);
});

afterAll(async () => {
  await proxy?.close();
  upstream?.close();
  canary?.close();
});

describe('filtering proxy', () => {
  it('challenges requests without a live job credential', async () => {
    const res = await viaProxy(`http://127.0.0.1:${upstreamPort}/`);
    expect(res.status).toBe(407);
    expect(res.headers['proxy-authenticate']).toContain('Basic');
    const tunnel = await connect(`127.0.0.1:${upstreamPort}`);
    expect(tunnel.status).toBe(407);
    tunnel.socket.destroy();

    const session = proxy.openSession({ maxBytes: 1e6 });
    const wrong = await viaProxy(`http://127.0.0.1:${upstreamPort}/`, {
      'proxy-authorization': `Basic ${Buffer.from(`${session.username}:nope`).toString('base64')}`,
    });
    expect(wrong.status).toBe(407);
    session.close();
    const closed = await viaProxy(`http://127.0.0.1:${upstreamPort}/`, {
      'proxy-authorization': basic(session),
    });
    expect(closed.status).toBe(407);
    expect(proxy.counters.unauthenticated).toBeGreaterThanOrEqual(4);
  });

  it('relays allowed requests to the checked address without following redirects', async () => {
    const session = proxy.openSession({ maxBytes: 1e6 });
    const res = await viaProxy(`http://pinned.test:${upstreamPort}/page?q=1`, {
      'proxy-authorization': basic(session),
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/elsewhere');
    expect(res.body).toBe('upstream body');
    // The name was resolved by the proxy's check and the Host header kept for the origin.
    expect(seenHosts.at(-1)).toBe(`pinned.test:${upstreamPort}`);
    expect(session.refusals).toEqual([]);
    session.close();
  });

  it('refuses forbidden targets over HTTP and CONNECT and records why', async () => {
    const session = proxy.openSession({ maxBytes: 1e6 });
    const auth = { 'proxy-authorization': basic(session) };
    const byIp = await viaProxy(`http://127.0.0.1:${canaryPort}/`, auth);
    expect(byIp.status).toBe(403);
    expect(byIp.headers['x-xt-proxy-refusal']).toBe('SOURCE_FORBIDDEN');
    const byName = await viaProxy(`http://rebind.test:${canaryPort}/`, auth);
    expect(byName.status).toBe(403);
    const tunnel = await connect(`127.0.0.1:${canaryPort}`, auth);
    expect(tunnel.status).toBe(403);
    tunnel.socket.destroy();
    const v6 = await connect(`[::1]:${canaryPort}`, auth);
    expect(v6.status).toBe(403);
    v6.socket.destroy();
    const unknown = await viaProxy(`http://nowhere.test/`, auth);
    expect(unknown.status).toBe(502);
    expect(session.refusals.map((r) => r.code)).toEqual([
      'SOURCE_FORBIDDEN',
      'SOURCE_FORBIDDEN',
      'SOURCE_FORBIDDEN',
      'SOURCE_FORBIDDEN',
      'SOURCE_UNREACHABLE',
    ]);
    expect(canaryConnections).toBe(0);
    session.close();
  });

  it('tunnels CONNECT to an allowed target', async () => {
    const session = proxy.openSession({ maxBytes: 1e6 });
    const tunnel = await connect(`pinned.test:${upstreamPort}`, {
      'proxy-authorization': basic(session),
    });
    expect(tunnel.status).toBe(200);
    const reply = await new Promise<string>((resolve) => {
      let data = '';
      tunnel.socket.on('data', (c: Buffer) => (data += c.toString()));
      tunnel.socket.on('close', () => resolve(data));
      tunnel.socket.write('GET /t HTTP/1.1\r\nHost: pinned.test\r\nConnection: close\r\n\r\n');
    });
    expect(reply).toMatch(/^HTTP\/1\.1 302/);
    expect(session.bytesIn).toBeGreaterThan(0);
    session.close();
  });

  it('cuts a job off once it has pulled more than its transfer budget', async () => {
    const session = proxy.openSession({ maxBytes: 64 * 1024 });
    const res = await viaProxy(`http://127.0.0.1:${upstreamPort}/big`, {
      'proxy-authorization': basic(session),
    }).catch(() => ({ status: 0, body: 'RESET' }));
    expect(res.body.length).toBeLessThan(256 * 1024);
    expect(session.refusals.map((r) => r.code)).toContain('SOURCE_TOO_LARGE');
    const after = await viaProxy(`http://127.0.0.1:${upstreamPort}/`, {
      'proxy-authorization': basic(session),
    });
    expect(after.status).toBe(407);
  });

  it('parses CONNECT authorities strictly', () => {
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseAuthority('[::1]:8443')).toEqual({ host: '::1', port: 8443 });
    expect(parseAuthority('example.com')).toBeNull();
    expect(parseAuthority('a:b:443')).toBeNull();
    expect(parseAuthority('example.com:0')).toBeNull();
    expect(parseAuthority('example.com:70000')).toBeNull();
  });

  it('treats a check that throws something unexpected as unreachable, not allowed', async () => {
    const broken = await startFilteringProxy({
      check: () => Promise.reject(new ExtractionFailure('INTERNAL', 'boom')),
    });
    try {
      const session = broken.openSession({ maxBytes: 1e6 });
      const port = Number(new URL(broken.server).port);
      const status = await new Promise<number>((resolve, reject) => {
        http
          .request({
            host: '127.0.0.1',
            port,
            path: `http://127.0.0.1:${upstreamPort}/`,
            headers: { 'proxy-authorization': basic(session) },
            agent: false,
          })
          .on('response', (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(502);
      expect(broken.counters).toMatchObject({ allowed: 0, refused: 1 });
    } finally {
      await broken.close();
    }
  });
});
