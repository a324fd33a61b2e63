import { isIP } from 'node:net';
import { ExtractionFailure } from '@xt/contract';
import pTimeout from 'p-timeout';
import { Agent, buildConnector } from 'undici';
import type { Allowlist } from './allowlist.ts';
import { resolveAndCheck, type LookupAll } from './resolve.ts';

export interface PinnedConnectorOptions {
  /** Connect (TCP + TLS handshake) timeout; undici's default is 10 s. */
  connectTimeoutMs?: number;
  /** Stand-in for DNS, for tests. */
  lookup?: LookupAll;
  /** Extra TLS options (a test CA, for instance); never `host`, which the connector pins. */
  tls?: { ca?: string | Buffer | Array<string | Buffer>; rejectUnauthorized?: boolean };
}

/** undici's own default connect timeout, reused as the bound on the DNS step. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * undici does not abandon a connection attempt whose connector has not called back yet, so a
 * DNS server that never answers would hold the request (and the Agent) forever. Bound it.
 */
function withTimeout<T>(promise: Promise<T>, ms: number, host: string): Promise<T> {
  return pTimeout(promise, {
    milliseconds: ms,
    message: new ExtractionFailure(
      'SOURCE_UNREACHABLE',
      `Resolving ${host} took longer than ${ms} ms.`,
      { retryable: true },
    ),
  });
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * An undici connector that resolves the host itself, refuses non-public answers and then dials
 * the very address it checked. The TLS server name stays the original host, so certificate
 * checks and SNI are unaffected by the pinning. Every new connection goes through this, so
 * every redirect hop and every pooled origin is checked.
 */
export function createPinnedConnector(
  allowlist: Allowlist,
  opts: PinnedConnectorOptions = {},
): buildConnector.connector {
  const dial = buildConnector({
    ...(opts.tls ?? {}),
    ...(opts.connectTimeoutMs === undefined ? {} : { timeout: opts.connectTimeoutMs }),
  });
  const lookupOpts = opts.lookup ? { lookup: opts.lookup } : {};
  const resolveTimeout = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  return (options, callback) => {
    const host = stripBrackets(options.hostname);
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    withTimeout(resolveAndCheck(host, port, allowlist, lookupOpts), resolveTimeout, host).then(
      ({ address }) => {
        const servername = options.servername || (isIP(host) === 0 ? host : undefined);
        dial({ ...options, hostname: address, ...(servername ? { servername } : {}) }, callback);
      },
      (err: unknown) => {
        callback(err instanceof Error ? err : new Error(String(err)), null);
      },
    );
  };
}

/** An undici Agent whose every connection goes through {@link createPinnedConnector}. */
export function createPinnedDispatcher(
  allowlist: Allowlist,
  opts: PinnedConnectorOptions = {},
): Agent {
  return new Agent({ connect: createPinnedConnector(allowlist, opts) });
}
