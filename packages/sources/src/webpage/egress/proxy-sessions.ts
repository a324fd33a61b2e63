import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FailureCode } from '@xt/contract';

/** Why the proxy turned a request down; the renderer maps the main document's refusal to a failure. */
export interface ProxyRefusal {
  host: string;
  port: number;
  code: Extract<FailureCode, 'SOURCE_FORBIDDEN' | 'SOURCE_UNREACHABLE' | 'SOURCE_TOO_LARGE'>;
  retryable: boolean;
  message: string;
}

/**
 * One render job's right to use the proxy. Credentials are per job rather than per process so a
 * credential is worthless once its job ends, and so refusals and bytes are attributed to the job
 * that caused them.
 */
export interface ProxySession {
  readonly username: string;
  readonly password: string;
  readonly refusals: readonly ProxyRefusal[];
  /** Response bytes relayed to the browser for this job (plain HTTP bodies and tunnel traffic). */
  readonly bytesIn: number;
  readonly requests: number;
  close(): void;
}

export interface SessionInternals extends ProxySession {
  readonly maxBytes: number;
  readonly closed: boolean;
  refuse(refusal: ProxyRefusal): void;
  countRequest(): void;
  /** Adds relayed bytes; false once the job's transfer budget is spent. */
  addBytes(n: number): boolean;
  /** Sockets to destroy when the job ends, so nothing of a finished page keeps running. */
  track(socket: { destroy(): void; once(event: 'close', fn: () => void): unknown }): void;
  /** Runs when the job ends (after its sockets are destroyed). */
  onClose(fn: () => void): void;
}

/** Active sessions by username, checked against `Proxy-Authorization: Basic …`. */
export class SessionTable {
  readonly #sessions = new Map<string, SessionInternals>();

  open(maxBytes: number): SessionInternals {
    const username = `job-${randomBytes(9).toString('base64url')}`;
    const password = randomBytes(24).toString('base64url');
    const sockets = new Set<{ destroy(): void }>();
    const closers: (() => void)[] = [];
    const refusals: ProxyRefusal[] = [];
    let bytesIn = 0;
    let requests = 0;
    let closed = false;
    const table = this.#sessions;
    const session: SessionInternals = {
      username,
      password,
      refusals,
      maxBytes,
      get bytesIn() {
        return bytesIn;
      },
      get requests() {
        return requests;
      },
      get closed() {
        return closed;
      },
      refuse(refusal) {
        if (refusals.length < 1000) refusals.push(refusal);
      },
      countRequest() {
        requests += 1;
      },
      addBytes(n) {
        bytesIn += n;
        return bytesIn <= maxBytes;
      },
      track(socket) {
        if (closed) {
          socket.destroy();
          return;
        }
        if (sockets.has(socket)) return;
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      },
      onClose(fn) {
        if (closed) fn();
        else closers.push(fn);
      },
      close() {
        if (closed) return;
        closed = true;
        table.delete(username);
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        for (const fn of closers.splice(0)) fn();
      },
    };
    table.set(username, session);
    return session;
  }

  /** The session named by a `Proxy-Authorization` header, or undefined when it names none. */
  authenticate(header: string | undefined): SessionInternals | undefined {
    if (header === undefined) return undefined;
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!match?.[1]) return undefined;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const session = this.#sessions.get(decoded.slice(0, colon));
    if (!session || session.closed) return undefined;
    const given = Buffer.from(decoded.slice(colon + 1));
    const expected = Buffer.from(session.password);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return session;
  }

  closeAll(): void {
    for (const session of [...this.#sessions.values()]) session.close();
  }
}
