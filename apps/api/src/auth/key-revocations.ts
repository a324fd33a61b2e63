import { KeyCache } from '@xt/accounts';
import { listen, type Db } from '@xt/db';
import type { Logger } from '@xt/runtime';

/** The channel the database announces revoked or changed keys on (migration 0010). */
export const KEY_CHANNEL = 'api_key_changed';

/**
 * The process's key cache, told by PostgreSQL about every revocation (a trigger on `api_keys`
 * sends the key's id with NOTIFY when its transaction commits), so a revoked key stops working
 * in every API process within moments, whichever process or CLI revoked it.
 */
export function createKeyCache(
  db: Db,
  options: { listenUrl: string; ttlSeconds: number; logger: Logger },
) {
  const keys = new KeyCache(db, { ttlMs: options.ttlSeconds * 1000, max: 10_000 });
  if (options.ttlSeconds === 0) return { keys, close: () => Promise.resolve() };
  let warned = false;
  const listener = listen({
    url: options.listenUrl,
    channel: KEY_CHANNEL,
    applicationName: 'api-key-revocations',
    onNotification: (keyId) => keys.evict(keyId),
    onLive: (live) => {
      keys.setLive(live);
      if (live && warned) options.logger.info('key revocations heard again; key cache on');
      if (live) warned = false;
    },
    onError: (err) => {
      if (warned) return;
      warned = true;
      options.logger.warn(
        { error: err.message },
        'not hearing key revocations; every request looks its key up until this recovers',
      );
    },
  });
  return { keys, close: () => listener.close() };
}
