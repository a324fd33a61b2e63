import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowlist, type Allowlist } from './allowlist.ts';
import { resolveAndCheck, systemLookup, type LookupAll } from './resolve.ts';
import { safeFetch } from './safe-fetch.ts';
import { checkSubmittedUrl } from './submit-url.ts';
import { failureOf, startCanary, startServer, type Canary, type RunningServer } from '@xt/testkit';

let canary: Canary;
let fixture: RunningServer;
let allowlist: Allowlist;

/** Fake DNS for `.test` names (RFC 2606 keeps them out of real DNS); the rest use the system. */
const table: Record<string, string[]> = {
  'evil.test': ['127.0.0.1'],
  'v6loop.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'private.test': ['10.0.0.7'],
  'ula.test': ['fd00::7'],
};
let lookups: string[] = [];
const lookup: LookupAll = (host) => {
  lookups.push(host);
  if (!host.endsWith('.test')) return systemLookup(host);
  const answer = table[host];
  if (!answer)
    return Promise.reject(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
  return Promise.resolve(
    answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
};

beforeAll(async () => {
  canary = await startCanary();
  fixture = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to !== null) {
      res.writeHead(302, { location: to.replace('CANARY', String(canary.port)) }).end();
      return;
    }
    res.end('fixture');
  });
  allowlist = parseAllowlist(`127.0.0.1:${fixture.port}`);
});

afterAll(async () => {
  // The whole point of the file: no SSRF attempt ever opened a connection to the canary.
  expect(canary.connections()).toBe(0);
  await canary.close();
  await fixture.close();
});

/** Every way of writing "the canary" (or another private place) that a fetch must refuse. */
const forms = (): string[] => {
  const p = canary.port;
  return [
    `http://127.0.0.1:${p}/`,
    `http://2130706433:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://0x7f.1:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://017700000001:${p}/`,
    `http://127.1:${p}/`,
    `http://127.0.1:${p}/`,
    `http://127.0.0.1.:${p}/`,
    `http://0:${p}/`,
    `http://0.0.0.0:${p}/`,
    `http://[::]:${p}/`,
    `http://[::1]:${p}/`,
    `http://[0:0:0:0:0:0:0:1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://[::ffff:7f00:1]:${p}/`,
    `http://[::127.0.0.1]:${p}/`,
    `http://[::ffff:0:127.0.0.1]:${p}/`,
    `http://[64:ff9b::127.0.0.1]:${p}/`,
    `http://[64:ff9b:1::7f00:1]:${p}/`,
    `http://[2002:7f00:1::1]:${p}/`,
    `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${p}/`,
    `http://[100::1]:${p}/`,
    `http://[2001:db8::1]:${p}/`,
    `http://[fd00::1]:${p}/`,
    `http://[fe80::1]:${p}/`,
    `http://[fec0::1]:${p}/`,
    `http://[ff02::1]:${p}/`,
    `http://169.254.169.254:${p}/`,
    `http://10.0.0.1:${p}/`,
    `http://100.64.0.1:${p}/`,
    `http://192.168.0.1:${p}/`,
    `http://localhost:${p}/`,
    `http://evil.test:${p}/`,
    `http://v6loop.test:${p}/`,
    `http://mapped.test:${p}/`,
    `http://metadata.test:${p}/`,
    `http://mixed.test:${p}/`,
    `http://private.test:${p}/`,
    `http://ula.test:${p}/`,
  ];
};

const fetchOpts = () => ({ allowlist, lookup, maxBytes: 1024, timeoutMs: 5000 });

describe('SSRF: fetch time', () => {
  it('has at least 25 forms to try', () => {
    expect(forms().length).toBeGreaterThanOrEqual(25);
  });

  it('refuses every form with SOURCE_FORBIDDEN', async () => {
    for (const url of forms()) {
      const failure = await failureOf(safeFetch(url, fetchOpts()));
      expect({ url, code: failure.code, retryable: failure.retryable }).toEqual({
        url,
        code: 'SOURCE_FORBIDDEN',
        retryable: false,
      });
    }
  });

  it('refuses every literal form at submit time too (names wait for DNS)', () => {
    for (const url of forms()) {
      const host = new URL(url).hostname;
      if (host.endsWith('.test')) continue;
      expect({ url, verdict: checkSubmittedUrl(url, allowlist) }).toEqual({
        url,
        verdict: expect.stringMatching(/non-public|local host/) as unknown,
      });
    }
  });

  it('refuses a public-looking name whose DNS answer is private, naming neither range nor address', async () => {
    const failure = await failureOf(resolveAndCheck('metadata.test', 80, allowlist, { lookup }));
    expect(failure.code).toBe('SOURCE_FORBIDDEN');
    expect(failure.message).not.toMatch(/link-local|169\.254/);
  });

  it('refuses a name when any one of its answers is private', async () => {
    const failure = await failureOf(resolveAndCheck('mixed.test', 80, allowlist, { lookup }));
    expect(failure.code).toBe('SOURCE_FORBIDDEN');
  });

  it('reports a name that does not resolve as SOURCE_UNREACHABLE', async () => {
    const failure = await failureOf(safeFetch('http://nowhere.test/', fetchOpts()));
    expect(failure.code).toBe('SOURCE_UNREACHABLE');
  });

  it('reaches the allow-listed fixture, but not the canary on the same address', async () => {
    const ok = await safeFetch(`${fixture.origin}/`, fetchOpts());
    expect(ok.body.toString()).toBe('fixture');
    const failure = await failureOf(safeFetch(`${canary.origin}/`, fetchOpts()));
    expect(failure.code).toBe('SOURCE_FORBIDDEN');
  });

  it('connects to the address it checked, with one lookup per connection', async () => {
    table['pinned.test'] = ['127.0.0.1'];
    lookups = [];
    // The system resolver does not know pinned.test: success proves the checked answer was used.
    const res = await safeFetch(`http://pinned.test:${fixture.port}/`, {
      ...fetchOpts(),
      allowlist: parseAllowlist(`pinned.test:${fixture.port}`),
    });
    expect(res.body.toString()).toBe('fixture');
    expect(lookups).toEqual(['pinned.test']);
  });
});

describe('SSRF: redirects', () => {
  const via = (to: string) => `${fixture.origin}/redirect?to=${encodeURIComponent(to)}`;

  it.each([
    'http://127.0.0.1:CANARY/',
    'http://[::1]:CANARY/',
    'http://2130706433:CANARY/',
    'http://evil.test:CANARY/',
    'http://mapped.test:CANARY/',
    'http://169.254.169.254/latest/meta-data/',
  ])('refuses an allowed hop that redirects to %s', async (to) => {
    const failure = await failureOf(safeFetch(via(to), fetchOpts()));
    expect(failure.code).toBe('SOURCE_FORBIDDEN');
  });

  it('refuses a private hop deep in a chain', async () => {
    const inner = via('http://127.0.0.1:CANARY/');
    const failure = await failureOf(safeFetch(via(via(inner)), fetchOpts()));
    expect(failure.code).toBe('SOURCE_FORBIDDEN');
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/file.pdf', 'gopher://127.0.0.1:CANARY/_x'])(
    'refuses a redirect to %s',
    async (to) => {
      const failure = await failureOf(safeFetch(via(to), fetchOpts()));
      expect(failure.code).toBe('SOURCE_FORBIDDEN');
      expect(failure.message).toMatch(/Only http and https/);
    },
  );
});
