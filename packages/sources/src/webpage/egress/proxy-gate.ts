import http from 'node:http';
import { ExtractionFailure } from '@xt/contract';
import type { ResolvedAddress } from '@xt/fetcher';
import type { WebpageLogger } from '../logger.ts';
import { SessionTable, type ProxyRefusal, type SessionInternals } from './proxy-sessions.ts';

/** Resolves a target once and throws an ExtractionFailure when it may not be contacted. */
export type TargetCheck = (host: string, port: number) => Promise<ResolvedAddress>;

export interface ProxyCounters {
  allowed: number;
  refused: number;
  unauthenticated: number;
}

export const REALM = 'Basic realm="xt-webpage", charset="UTF-8"';

export function toRefusal(host: string, port: number, err: unknown): ProxyRefusal {
  if (
    err instanceof ExtractionFailure &&
    (err.code === 'SOURCE_FORBIDDEN' || err.code === 'SOURCE_UNREACHABLE')
  ) {
    return { host, port, code: err.code, retryable: err.retryable, message: err.message };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { host, port, code: 'SOURCE_UNREACHABLE', retryable: true, message };
}

/**
 * What both ways through the proxy (plain-HTTP relay and CONNECT tunnel) ask of it: who holds a
 * live job credential, may this target be contacted (and at which checked address), has the job
 * used up its byte budget. Also keeps the counters and each job's connection pool.
 */
export class ProxyGate {
  readonly sessions = new SessionTable();
  readonly counters: ProxyCounters = { allowed: 0, refused: 0, unauthenticated: 0 };
  // One connection pool per job: reuse within a page, never across jobs (a closing job would
  // otherwise destroy a socket another job had just taken from the pool). Pools are keyed by
  // the checked address, so a reused socket never reaches an unchecked place.
  private readonly agents = new WeakMap<SessionInternals, http.Agent>();

  constructor(
    private readonly check: TargetCheck,
    private readonly logger: WebpageLogger,
    readonly timeoutMs: number,
  ) {}

  /** The job whose credential the request carries; undefined (and counted) when none is live. */
  authenticate(req: http.IncomingMessage): SessionInternals | undefined {
    const session = this.sessions.authenticate(req.headers['proxy-authorization']);
    if (!session) this.counters.unauthenticated += 1;
    return session;
  }

  /** The checked address to connect to, or why the target is refused (recorded on the job). */
  async admit(
    session: SessionInternals,
    host: string,
    port: number,
  ): Promise<ResolvedAddress | ProxyRefusal> {
    session.countRequest();
    try {
      const resolved = await this.check(host, port);
      this.counters.allowed += 1;
      return resolved;
    } catch (err) {
      const refusal = toRefusal(host, port, err);
      this.counters.refused += 1;
      session.refuse(refusal);
      this.logger.warn(
        { host, port, code: refusal.code, reason: refusal.message },
        'webpage proxy refused a target',
      );
      return refusal;
    }
  }

  /** Counts bytes received for the job; past its budget the job is refused and cut off. */
  received(session: SessionInternals, bytes: number, host: string, port: number): void {
    if (session.addBytes(bytes)) return;
    session.refuse({
      host,
      port,
      code: 'SOURCE_TOO_LARGE',
      retryable: false,
      message: `The page transferred more than ${session.maxBytes} bytes.`,
    });
    this.logger.warn(
      { host, port, maxBytes: session.maxBytes },
      'webpage transfer budget exceeded',
    );
    session.close();
  }

  agentFor(session: SessionInternals): http.Agent {
    let agent = this.agents.get(session);
    if (!agent) {
      const created = new http.Agent({ keepAlive: true, maxSockets: 16, timeout: this.timeoutMs });
      session.onClose(() => created.destroy());
      this.agents.set(session, created);
      agent = created;
    }
    return agent;
  }
}
