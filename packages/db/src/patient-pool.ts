import pg from 'pg';
import { patientTimeout } from '@xt/runtime';

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: Error | boolean) => void,
) => void;

export interface PatientPoolConfig extends pg.PoolConfig {
  connectionTimeoutMillis: number;
  /**
   * The longest a caller waits for a connection while PostgreSQL keeps answering this pool
   * (connections being made, clients given back after their queries) but every slot is taken:
   * this process is busy, the database is not down. Each slot frees within the statement
   * timeout, so that is the natural bound.
   */
  busyWaitMillis: number;
  /**
   * How long PostgreSQL may say nothing to this pool before a waiting caller takes it for gone.
   * At least `connectionTimeoutMillis`.
   */
  silenceMillis: number;
}

/**
 * A pool that tells "PostgreSQL does not answer" from "this process is busy".
 *
 * A caller's wait for a connection is timed in time this process could have seen it come
 * (patientTimeout), not wall-clock time: node-postgres times it with plain timers, which fire
 * before the socket is read when the event loop was busy.
 *
 * After `connectionTimeoutMillis` the caller gives up only if PostgreSQL has also been silent
 * for `silenceMillis`: no connection made and no client given back in that time. Twenty 8 MiB
 * creates at once, on a loaded machine, took more than the timeout to open new connections
 * while the others were storing files, and the creates waiting on them were answered 503
 * although PostgreSQL was answering all along (seen: 2 of 10 connections made after 2.2 s; a
 * new connection alone after 2.0 s with the others busy). Such a caller now keeps waiting while
 * the database shows life, up to `busyWaitMillis`: a busy API is slow, not unavailable.
 * A database that refuses or drops connections still fails callers at once, and one that hangs
 * fails them within `silenceMillis` of its last answer.
 *
 * node-postgres's own timeout stays, longer than either, as a backstop that frees the pool's slot
 * from a connection that never comes. A connection that comes after the caller gave up goes back
 * to the pool.
 */
export class PatientPool extends pg.Pool {
  readonly #connectTimeoutMs: number;
  readonly #busyWaitMs: number;
  readonly #silenceMs: number;
  /** When PostgreSQL last answered this pool (performance.now()). */
  #lastAnswer = Number.NEGATIVE_INFINITY;

  constructor({ busyWaitMillis, silenceMillis, ...config }: PatientPoolConfig) {
    const ms = config.connectionTimeoutMillis;
    super({ ...config, connectionTimeoutMillis: Math.max(10_000, ms * 4, busyWaitMillis + ms) });
    this.#connectTimeoutMs = ms;
    this.#busyWaitMs = busyWaitMillis;
    this.#silenceMs = Math.max(silenceMillis, ms);
    const answered = () => void (this.#lastAnswer = performance.now());
    this.on('connect', answered);
    this.on('release', (err?: Error) => {
      if (!err) answered();
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    const got = new Promise<pg.PoolClient>((resolve, reject) => {
      let settled = false;
      const started = performance.now();
      const wait = (ms: number): (() => void) =>
        patientTimeout(ms, () => {
          const now = performance.now();
          const silentFor = now - this.#lastAnswer;
          if (silentFor < this.#silenceMs && now - started < this.#busyWaitMs) {
            cancel = wait(this.#silenceMs - silentFor);
            return;
          }
          settled = true;
          reject(new Error('timeout exceeded when trying to connect'));
        });
      let cancel = wait(this.#connectTimeoutMs);
      super.connect().then(
        (client) => {
          if (settled) return client.release();
          settled = true;
          cancel();
          resolve(client);
        },
        (err: Error) => {
          if (settled) return;
          settled = true;
          cancel();
          reject(err);
        },
      );
    });
    if (!callback) return got;
    got.then(
      (client) => callback(undefined, client, (release) => client.release(release)),
      (err: Error) => callback(err, undefined, () => undefined),
    );
    return undefined;
  }
}
