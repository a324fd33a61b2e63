import { LRUCache } from 'lru-cache';
import type { Db } from '@xt/db';
import { hashKey } from './key-material.ts';
import { findLiveKey, touchKey, type LiveKey, type Principal } from './keys.ts';

export interface KeyCacheOptions {
  /** How long a key is trusted without asking the database again; 0 turns the cache off. */
  ttlMs: number;
  /** Keys kept at most (least recently used go first). */
  max: number;
}

/**
 * API keys authenticated by this process, so a request does not look its key up again.
 * Revocation must still reach every process at once: `evict` is called for each revocation the
 * database announces (LISTEN/NOTIFY, see the API's key-revocations), and while those
 * announcements cannot arrive (the listening connection is down) nothing is served from the
 * cache (`live` false) and it is emptied, since a revocation may have been missed. The TTL bounds
 * how long anything missed in some other way could last. Only keys that exist are cached, so
 * guessed keys cannot fill it.
 */
export class KeyCache {
  private readonly entries: LRUCache<string, LiveKey>;
  private readonly byKeyId = new Map<string, string>();
  private live = false;
  /** Counts revocations heard and losses of hearing, to spot one during a lookup. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly options: KeyCacheOptions,
  ) {
    this.entries = new LRUCache<string, LiveKey>({
      max: options.max,
      ttl: Math.max(1, options.ttlMs),
      dispose: (value) => this.byKeyId.delete(value.principal.keyId!),
    });
  }

  async authenticate(presented: string): Promise<Principal | null> {
    if (!this.live || this.options.ttlMs === 0) {
      const found = await findLiveKey(this.db, presented);
      if (found) await touchKey(this.db, found);
      return found?.principal ?? null;
    }
    const cacheKey = hashKey(presented).toString('base64');
    let entry = this.entries.get(cacheKey);
    if (!entry) {
      const before = this.generation;
      const found = await findLiveKey(this.db, presented);
      if (!found) return null;
      // A revocation heard during the lookup may be of this key, read just before it committed:
      // keep the answer only when nothing was heard meanwhile.
      if (this.live && this.generation === before) {
        this.entries.set(cacheKey, found);
        this.byKeyId.set(found.principal.keyId!, cacheKey);
      }
      entry = found;
    }
    if (await touchKey(this.db, entry)) entry.lastUsedAt = new Date();
    return entry.principal;
  }

  /** A key was revoked or changed: forget it. */
  evict(keyId: string): void {
    this.generation++;
    const cacheKey = this.byKeyId.get(keyId);
    if (cacheKey !== undefined) this.entries.delete(cacheKey);
  }

  /** Whether revocations are being heard; either way, what was cached before is dropped. */
  setLive(live: boolean): void {
    this.live = live;
    this.generation++;
    this.entries.clear();
  }
}
