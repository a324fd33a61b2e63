import { MemoryStore } from 'express-rate-limit';
import type { WindowHits } from './rate-limit-store.ts';

/**
 * The rate limits counted in this process alone, for while Redis cannot be reached: the same
 * fixed windows and the same order as the Redis script (the client's window, then, unless the
 * client is past its limit, the account's), so every client still meets a limit. Behind a
 * balancer each API process counts its own share, so the limits then hold per process, up to
 * their number of times the shared ones: a floor, not the limit itself. express-rate-limit's
 * MemoryStore keeps the windows (it forgets keys idle for a window, so memory follows the
 * clients seen recently).
 */
export class ProcessRateCounter {
  readonly #clients = new MemoryStore();
  readonly #accounts = new MemoryStore();

  constructor(windowMs: number) {
    this.#clients.init({ windowMs } as Parameters<MemoryStore['init']>[0]);
    this.#accounts.init({ windowMs } as Parameters<MemoryStore['init']>[0]);
  }

  async hit(
    client: string,
    account: string,
    clientMax: number,
  ): Promise<{ client: WindowHits; account?: WindowHits }> {
    const counted = await this.#clients.increment(client);
    const clientHits = { hits: counted.totalHits, resetTime: resetOf(counted) };
    if (clientHits.hits > clientMax) return { client: clientHits };
    const accountCounted = await this.#accounts.increment(account);
    return {
      client: clientHits,
      account: { hits: accountCounted.totalHits, resetTime: resetOf(accountCounted) },
    };
  }
}

/** MemoryStore always sets the reset time; its type allows it to be absent. */
const resetOf = (info: { resetTime?: Date | undefined }): Date => info.resetTime ?? new Date();
