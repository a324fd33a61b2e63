import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionFailure } from '@xt/contract';
import { parseAllowlist } from './allowlist.ts';
import { createPinnedDispatcher } from './pinned-dispatcher.ts';
import type { LookupAll } from './resolve.ts';
import { safeFetch } from './safe-fetch.ts';

let dir: string;
let cert: string;
let server: Server;
let port: number;

/** Both names point at the local server; only `secure.test` is on the certificate. */
const lookup: LookupAll = (host) =>
  host === 'secure.test' || host === 'other.test'
    ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
    : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xt-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=secure.test',
      '-addext',
      'subjectAltName=DNS:secure.test',
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    res.end(
      `sni=${(req.socket as { servername?: string }).servername ?? ''} host=${req.headers.host ?? ''}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('TLS through the pinned connector', () => {
  const allowlist = () => parseAllowlist('secure.test,other.test');

  it('dials the checked address but verifies the certificate and sends SNI for the host name', async () => {
    const dispatcher = createPinnedDispatcher(allowlist(), { lookup, tls: { ca: cert } });
    try {
      const res = await safeFetch(`https://secure.test:${port}/`, {
        allowlist: allowlist(),
        maxBytes: 1000,
        timeoutMs: 5000,
        dispatcher,
      });
      expect(res.body.toString()).toBe(`sni=secure.test host=secure.test:${port}`);
    } finally {
      await dispatcher.close();
    }
  });

  it('refuses a certificate for another name (not retryable)', async () => {
    const dispatcher = createPinnedDispatcher(allowlist(), { lookup, tls: { ca: cert } });
    try {
      const err: unknown = await safeFetch(`https://other.test:${port}/`, {
        allowlist: allowlist(),
        maxBytes: 1000,
        timeoutMs: 5000,
        dispatcher,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExtractionFailure);
      expect(err).toMatchObject({ code: 'SOURCE_UNREACHABLE', retryable: false });
    } finally {
      await dispatcher.close();
    }
  });

  it('gives up on a handshake that never completes after connectTimeoutMs (retryable)', async () => {
    // Accepts TCP and then says nothing, so the TLS handshake hangs inside the connect phase.
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const err: unknown = await safeFetch(`https://secure.test:${silentPort}/`, {
        allowlist: allowlist(),
        maxBytes: 1000,
        timeoutMs: 10_000,
        connectTimeoutMs: 200,
        lookup,
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'SOURCE_UNREACHABLE', retryable: true });
      expect((err as Error).message).toMatch(/UND_ERR_CONNECT_TIMEOUT/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
