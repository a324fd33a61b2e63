import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { PatientPool } from './patient-pool.ts';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;

/** Handles made with `preparedStatements: false` (see preparedPerDb). */
export const withoutNamedStatements = new WeakSet<Db>();

export interface DbHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface DbOptions {
  max?: number;
  applicationName?: string;
  /**
   * How long to wait for a connection (a new one, or a free one from a busy pool). Short, so a
   * request during a database outage is answered 503 within 3 s (docs/api.md#when-postgresql-or-redis-is-down) instead of
   * hanging. Default 2 s, not counting time the event loop was too busy to see the connection
   * come: a busy process waits longer, rather than answering 503 (PatientPool).
   */
  connectTimeoutMs?: number;
  /** Server-side cap on any one statement; a runaway query cannot hold a connection. Default 30 s. */
  statementTimeoutMs?: number;
  /** Told about connection errors that happen outside any query (e.g. a restart). */
  onConnectionError?: (err: Error) => void;
  /** Told each time a new connection is made: the database answers (again). */
  onConnect?: () => void;
  /**
   * Name the hottest statements so each connection parses them once (default). `false` sends
   * them unnamed, for a transaction-mode pooler that cannot keep a named statement on the
   * server connection a later query lands on (PgBouncer before 1.21).
   */
  preparedStatements?: boolean;
}

export function createDb(url: string, options: DbOptions = {}): DbHandle {
  const statementTimeout = options.statementTimeoutMs ?? 30_000;
  const pool = new PatientPool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'extraction-service',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2_000,
    busyWaitMillis: statementTimeout,
    // Long enough for a new connection on a loaded host while the pool's others store large
    // files (over 2 s was seen); a hung database is given up on after it (docs/operations.md).
    silenceMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeout,
    // A transaction left open by a stuck caller would hold its row locks forever.
    idle_in_transaction_session_timeout: statementTimeout * 2,
    // Notices a database host that vanished without closing the connection.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  const onError = (err: Error) => options.onConnectionError?.(err);
  // An idle client erroring (database restart) must not crash the process; the pool replaces it.
  pool.on('error', onError);
  // A checked-out client emits its errors on itself, not on the pool: without this listener a
  // restart during a transaction is an unhandled 'error' event, which ends the process. The
  // query in flight still fails, and the caller sees that.
  pool.on('connect', (client) => {
    client.on('error', onError);
    options.onConnect?.();
  });
  const db = drizzle(pool, { schema });
  if (options.preparedStatements === false) withoutNamedStatements.add(db);
  return { db, pool, close: () => pool.end() };
}
