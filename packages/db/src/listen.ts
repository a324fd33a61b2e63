import pg from 'pg';

export interface ListenOptions {
  url: string;
  channel: string;
  applicationName?: string;
  onNotification(payload: string): void;
  /** Told true once LISTEN is in effect (again), false when the connection is lost. */
  onLive(live: boolean): void;
  onError?(err: Error): void;
  /** Between reconnection attempts. Default 1 s. */
  retryMs?: number;
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * LISTEN on one channel over a connection of its own (a pooled connection is handed to others
 * between queries, and a transaction-mode PgBouncer cannot carry LISTEN at all), reconnecting
 * until closed. Hand-written rather than `pg-listen`: that package is unmaintained, and what
 * matters here is small: telling the caller each time notifications may have been missed.
 */
export function listen(options: ListenOptions): Listener {
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const lost = (err?: Error) => {
    if (err) options.onError?.(err);
    const was = client;
    client = undefined;
    if (!was) return;
    was.removeAllListeners();
    was.on('error', () => undefined);
    void was.end().catch(() => undefined);
    options.onLive(false);
    if (!closed) timer = setTimeout(connect, options.retryMs ?? 1_000);
  };

  async function connect() {
    timer = undefined;
    const c = new pg.Client({
      connectionString: options.url,
      application_name: options.applicationName ?? 'listener',
      connectionTimeoutMillis: 2_000,
      keepAlive: true,
    });
    client = c;
    c.on('error', (err) => lost(err));
    c.on('end', () => lost());
    c.on('notification', (msg) => {
      if (msg.channel === options.channel) options.onNotification(msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
      if (closed || client !== c) return;
      options.onLive(true);
    } catch (err) {
      if (client === c) lost(err as Error);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      c?.removeAllListeners();
      c?.on('error', () => undefined);
      await c?.end().catch(() => undefined);
    },
  };
}
