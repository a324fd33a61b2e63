import { isIP } from 'node:net';
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
  return (options, callback) => {
    const host = stripBrackets(options.hostname);
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    resolveAndCheck(host, port, allowlist, lookupOpts).then(
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
