import pg from 'pg';
import { patientTimeout } from '@xt/runtime';

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: Error | boolean) => void,
) => void;

/**
 * A pool whose wait for a connection (a new one, or a free one from a busy pool) gives up after
 * `connectionTimeoutMillis` of time in which this process could have seen the connection come
 * (patientTimeout), not of wall-clock time. node-postgres times it with plain timers, which fire
 * before the socket is read when the event loop was busy: 20 large JSON bodies parsed at once
 * were enough for a create to be answered 503 while PostgreSQL was fine. Its own timeout stays,
 * longer, as a backstop that frees the pool's slot from a connection that never comes. A
 * connection that comes after the caller gave up goes back to the pool.
 */
export class PatientPool extends pg.Pool {
  readonly #connectTimeoutMs: number;

  constructor(config: pg.PoolConfig & { connectionTimeoutMillis: number }) {
    const ms = config.connectionTimeoutMillis;
    super({ ...config, connectionTimeoutMillis: Math.max(10_000, ms * 4) });
    this.#connectTimeoutMs = ms;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    const got = new Promise<pg.PoolClient>((resolve, reject) => {
      let settled = false;
      const cancel = patientTimeout(this.#connectTimeoutMs, () => {
        settled = true;
        reject(new Error('timeout exceeded when trying to connect'));
      });
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
