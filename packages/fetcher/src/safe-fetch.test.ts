import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowlist, type Allowlist } from './allowlist.ts';
import { createPinnedDispatcher } from './pinned-dispatcher.ts';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.ts';
import { closedPort, failureOf, startCanary, startServer, type RunningServer } from '@xt/testkit';

let server: RunningServer;
let allowlist: Allowlist;
/** Set when the server sees the client give up on an endless body. */
let endlessClosed: Promise<void> = Promise.resolve();
let endlessBytesSent = 0;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const path = url.pathname;
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain) {
      const left = Number(chain[1]);
      if (left === 0) res.end('end of chain');
      // Relative Location: resolved against the current URL at every hop.
      else res.writeHead(302, { location: `${left - 1}` }).end();
      return;
    }
    switch (path) {
      case '/hello':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
        return;
      case '/echo-headers':
        res.end(JSON.stringify(req.headers));
        return;
      case '/relative':
        res.writeHead(301, { location: '../deep/../hello?x=1' }).end();
        return;
      case '/see-other':
        res.writeHead(303, { location: `${url.searchParams.get('to') ?? '/hello'}` }).end();
        return;
      case '/no-location':
        res.writeHead(302).end('moved somewhere');
        return;
      case '/declared-large':
        // Declares more than the cap and sends nothing else: refusal must come from the header.
        res.writeHead(200, { 'content-length': '1000000' });
        res.flushHeaders();
        return;
      case '/streamed': {
        const size = Number(url.searchParams.get('size'));
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        // Chunked, so no Content-Length: the cap must be enforced while counting.
        for (let sent = 0; sent < size; sent += 100)
          res.write(Buffer.alloc(Math.min(100, size - sent), 1));
        res.end();
        return;
      }
      case '/endless': {
        endlessBytesSent = 0;
        endlessClosed = new Promise((resolve) => res.on('close', () => resolve()));
        res.writeHead(200);
        const chunk = Buffer.alloc(16 * 1024, 7);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) endlessBytesSent += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      case '/hang':
        return; // never answers
      case '/slow-body':
        res.writeHead(200);
        res.write('partial');
        return; // never ends
      case '/reset':
        req.socket.destroy();
        return;
      default: {
        const status = /^\/status\/(\d+)$/.exec(path);
        if (status) {
          res.writeHead(Number(status[1])).end('status');
          return;
        }
        res.writeHead(404).end('not found');
      }
    }
  });
  allowlist = parseAllowlist(`127.0.0.1:${server.port}`);
});

afterAll(async () => {
  await server.close();
});

const opts = (more: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  allowlist,
  maxBytes: 10_000,
  timeoutMs: 5_000,
  ...more,
});

describe('safeFetch', () => {
  it('returns body, status, header content type and final URL', async () => {
    const res = await safeFetch(`${server.origin}/hello#frag`, opts());
    expect(res).toEqual({
      finalUrl: `${server.origin}/hello`,
      status: 200,
      headerContentType: 'text/plain',
      body: Buffer.from('hello'),
      redirects: [],
    });
  });

  it('sends accept, user agent and asks for no compression', async () => {
    const res = await safeFetch(
      `${server.origin}/echo-headers`,
      opts({ accept: 'application/pdf', userAgent: 'xt-test/1' }),
    );
    const headers = JSON.parse(res.body.toString()) as Record<string, string>;
    expect(headers['accept']).toBe('application/pdf');
    expect(headers['user-agent']).toBe('xt-test/1');
    expect(headers['accept-encoding']).toBe('identity');
  });

  it('refuses non-http(s) and credential URLs before any connection', async () => {
    expect((await failureOf(safeFetch('file:///etc/passwd', opts()))).code).toBe(
      'SOURCE_FORBIDDEN',
    );
    const creds = `http://user:pw@127.0.0.1:${server.port}/hello`;
    expect((await failureOf(safeFetch(creds, opts()))).code).toBe('SOURCE_FORBIDDEN');
  });
});

describe('safeFetch redirects', () => {
  it('follows exactly 10 relative redirects and lists every hop', async () => {
    const res = await safeFetch(`${server.origin}/chain/10`, opts());
    expect(res.body.toString()).toBe('end of chain');
    expect(res.redirects).toHaveLength(10);
    expect(res.redirects.at(-1)).toBe(`${server.origin}/chain/0`);
    expect(res.finalUrl).toBe(`${server.origin}/chain/0`);
  });

  it('gives up after more than 10 redirects', async () => {
    const failure = await failureOf(safeFetch(`${server.origin}/chain/11`, opts()));
    expect(failure.code).toBe('SOURCE_UNREACHABLE');
    expect(failure.retryable).toBe(false);
    expect(failure.message).toMatch(/More than 10 redirects/);
  });

  it('honours a smaller maxRedirects', async () => {
    await expect(
      safeFetch(`${server.origin}/chain/2`, opts({ maxRedirects: 2 })),
    ).resolves.toMatchObject({
      status: 200,
    });
    const failure = await failureOf(
      safeFetch(`${server.origin}/chain/3`, opts({ maxRedirects: 2 })),
    );
    expect(failure.code).toBe('SOURCE_UNREACHABLE');
  });

  it('resolves dot segments in a relative Location', async () => {
    const res = await safeFetch(`${server.origin}/relative`, opts());
    expect(res.finalUrl).toBe(`${server.origin}/hello?x=1`);
    expect(res.body.toString()).toBe('hello');
  });

  it('treats a 3xx without Location as a failed answer', async () => {
    const failure = await failureOf(safeFetch(`${server.origin}/no-location`, opts()));
    expect(failure.code).toBe('SOURCE_UNREACHABLE');
  });

  it('checks a redirect to another origin against the allowlist', async () => {
    const canary = await startCanary();
    try {
      const to = encodeURIComponent(`http://127.0.0.1:${canary.port}/`);
      const failure = await failureOf(safeFetch(`${server.origin}/see-other?to=${to}`, opts()));
      expect(failure.code).toBe('SOURCE_FORBIDDEN');
      expect(canary.connections()).toBe(0);
      // The same redirect succeeds once the target is allow-listed: the canary does count.
      const both = parseAllowlist(`127.0.0.1:${server.port},127.0.0.1:${canary.port}`);
      const res = await safeFetch(`${server.origin}/see-other?to=${to}`, opts({ allowlist: both }));
      expect(res.body.toString()).toBe('canary');
      expect(canary.connections()).toBe(1);
    } finally {
      await canary.close();
    }
  });
});

describe('safeFetch byte caps', () => {
  it('refuses a declared Content-Length over the cap without reading the body', async () => {
    const failure = await failureOf(
      safeFetch(`${server.origin}/declared-large`, opts({ maxBytes: 1000 })),
    );
    expect(failure.code).toBe('SOURCE_TOO_LARGE');
    expect(failure.retryable).toBe(false);
  });

  it('accepts a streamed body of exactly the cap', async () => {
    const res = await safeFetch(`${server.origin}/streamed?size=1000`, opts({ maxBytes: 1000 }));
    expect(res.body.length).toBe(1000);
  });

  it('refuses a streamed body one byte over the cap', async () => {
    const failure = await failureOf(
      safeFetch(`${server.origin}/streamed?size=1001`, opts({ maxBytes: 1000 })),
    );
    expect(failure.code).toBe('SOURCE_TOO_LARGE');
  });

  it('stops an endless body once past the cap', async () => {
    const failure = await failureOf(
      safeFetch(`${server.origin}/endless`, opts({ maxBytes: 64 * 1024 })),
    );
    expect(failure.code).toBe('SOURCE_TOO_LARGE');
    await endlessClosed;
    // Socket buffers may hold a few MiB in flight, but nowhere near an unbounded transfer.
    expect(endlessBytesSent).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('safeFetch timeouts and network faults', () => {
  it('ends a server that never answers with a retryable TIMEOUT', async () => {
    const failure = await failureOf(safeFetch(`${server.origin}/hang`, opts({ timeoutMs: 300 })));
    expect(failure.code).toBe('TIMEOUT');
    expect(failure.retryable).toBe(true);
  });

  it('applies the deadline to a DNS lookup that never answers', async () => {
    const failure = await failureOf(
      safeFetch(
        'http://stuck.test/',
        opts({ timeoutMs: 300, lookup: () => new Promise(() => {}) }),
      ),
    );
    expect(failure.code).toBe('TIMEOUT');
  });

  it('bounds a stuck DNS lookup by the connect timeout, as a retryable fault', async () => {
    const failure = await failureOf(
      safeFetch(
        'http://stuck.test/',
        opts({ timeoutMs: 5_000, connectTimeoutMs: 200, lookup: () => new Promise(() => {}) }),
      ),
    );
    expect(failure.code).toBe('SOURCE_UNREACHABLE');
    expect(failure.retryable).toBe(true);
    expect(failure.message).toMatch(/Resolving stuck.test took longer than 200 ms/);
  });

  it('applies the deadline to the body too', async () => {
    const failure = await failureOf(
      safeFetch(`${server.origin}/slow-body`, opts({ timeoutMs: 300 })),
    );
    expect(failure.code).toBe('TIMEOUT');
  });

  it('rethrows the caller abort reason instead of a failure', async () => {
    const controller = new AbortController();
    const reason = new Error('extraction deleted');
    const pending = safeFetch(`${server.origin}/hang`, opts({ signal: controller.signal }));
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });

  it('reports a refused connection as retryable SOURCE_UNREACHABLE', async () => {
    const port = await closedPort();
    const failure = await failureOf(
      safeFetch(
        `http://127.0.0.1:${port}/`,
        opts({ allowlist: parseAllowlist(`127.0.0.1:${port}`) }),
      ),
    );
    expect(failure.code).toBe('SOURCE_UNREACHABLE');
    expect(failure.retryable).toBe(true);
  });

  it('reports a reset connection as retryable SOURCE_UNREACHABLE', async () => {
    const failure = await failureOf(safeFetch(`${server.origin}/reset`, opts()));
    expect(failure.code).toBe('SOURCE_UNREACHABLE');
    expect(failure.retryable).toBe(true);
  });
});

describe('safeFetch status mapping', () => {
  it.each([
    [401, 'SOURCE_FORBIDDEN', false],
    [403, 'SOURCE_FORBIDDEN', false],
    [404, 'SOURCE_UNREACHABLE', false],
    [410, 'SOURCE_UNREACHABLE', false],
    [400, 'SOURCE_UNREACHABLE', false],
    [429, 'SOURCE_UNREACHABLE', true],
    [500, 'SOURCE_UNREACHABLE', true],
    [503, 'SOURCE_UNREACHABLE', true],
  ] as const)('maps HTTP %i to %s (retryable %s)', async (status, code, retryable) => {
    const failure = await failureOf(safeFetch(`${server.origin}/status/${status}`, opts()));
    expect({ code: failure.code, retryable: failure.retryable }).toEqual({ code, retryable });
  });

  it('accepts other 2xx answers', async () => {
    const res = await safeFetch(`${server.origin}/status/203`, opts());
    expect(res.status).toBe(203);
  });
});

describe('shared pinned dispatcher', () => {
  it('serves several fetches and still refuses the private ones', async () => {
    const dispatcher = createPinnedDispatcher(allowlist);
    try {
      const a = await safeFetch(`${server.origin}/hello`, opts({ dispatcher }));
      const b = await safeFetch(`${server.origin}/chain/2`, opts({ dispatcher }));
      expect([a.body.toString(), b.body.toString()]).toEqual(['hello', 'end of chain']);
      const failure = await failureOf(safeFetch('http://[::1]:9/', opts({ dispatcher })));
      expect(failure.code).toBe('SOURCE_FORBIDDEN');
    } finally {
      await dispatcher.close();
    }
  });
});
