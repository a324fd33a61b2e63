import type { ServerResponse } from 'node:http';
import type { StandInStats } from './types.ts';

/*
 * A server's parallel slots (issue #36): llama.cpp works `total_slots` requests at once and
 * keeps the rest in its task queue, first come first served, with no limit and no error; a
 * client that gives up has spent the GPU's time for nothing. The stats show what a test needs
 * to see of that: the most worked and waiting at once, the queue each request met, and the
 * requests abandoned.
 */

export interface Slots {
  /**
   * Waits for a slot for this response; false when its client went away meanwhile. The slot
   * is held until the response ends, however it ends.
   */
  enter(res: ServerResponse): Promise<boolean>;
  /** `undefined`: unlimited (OpenAI's dialect) */
  setLimit(limit: number | undefined): void;
  stats: StandInStats;
  reset(): void;
}

export function createSlots(initial: number | undefined): Slots {
  let limit = initial;
  let inFlight = 0;
  const waiting: { res: ServerResponse; start: () => void }[] = [];
  const stats: StandInStats = { maxInFlight: 0, maxQueued: 0, abandoned: 0, queuedOnArrival: [] };

  function start(res: ServerResponse): void {
    inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
      if (!res.writableFinished) stats.abandoned += 1;
      next();
    });
  }

  function next(): void {
    while (waiting.length > 0 && (limit === undefined || inFlight < limit)) {
      waiting.shift()?.start();
    }
  }

  return {
    stats,
    enter(res) {
      if (res.destroyed) return Promise.resolve(false);
      if (limit === undefined || (inFlight < limit && waiting.length === 0)) {
        stats.queuedOnArrival.push(0);
        start(res);
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        const entry = {
          res,
          start: () => {
            res.off('close', gone);
            start(res);
            resolve(true);
          },
        };
        function gone(): void {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          stats.abandoned += 1;
          resolve(false);
        }
        res.once('close', gone);
        waiting.push(entry);
        stats.queuedOnArrival.push(waiting.length);
        stats.maxQueued = Math.max(stats.maxQueued, waiting.length);
      });
    },
    setLimit(value) {
      limit = value;
      next();
    },
    reset() {
      stats.maxInFlight = 0;
      stats.maxQueued = 0;
      stats.abandoned = 0;
      stats.queuedOnArrival.length = 0;
    },
  };
}
