import type { Logger } from 'pino';
import { createOutageReporter } from './outage.ts';
import { errorSummary } from './scrub.ts';

export interface PeriodicOptions {
  /** Names the loop in its log lines, e.g. `reconciler`. */
  name: string;
  intervalMs: number;
  logger: Logger;
  /** Wait before the first pass; by default the interval, capped at a second. */
  firstDelayMs?: number;
  /**
   * Each wait is stretched by up to this fraction of itself at random, so processes started
   * together (a deploy, a compose up) do not pass in step against the same rows.
   */
  jitter?: number;
  /**
   * Failures that mean a dependency is away (PostgreSQL, Redis): one warning when the outage
   * starts and one line when a pass succeeds again, rather than a warning every pass. Other
   * failures are warned about each time, without a stack. Default: every failure is an outage.
   */
  isOutage?: (err: unknown) => boolean;
  /** What the outage warning says after the loop's name. */
  outageMessage?: string;
}

export interface Periodic {
  /** Stops scheduling passes and resolves once a pass that is running has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` until stopped: one pass at a time (the next wait starts when a
 * pass ends, so a slow pass is never overlapped by the next), jittered waits, outage reporting,
 * and a `stop()` that waits for the running pass. Every background loop of the service (the
 * reconciler, the upload sweep, the webhook relay, the idempotency-key sweep) runs on this.
 *
 * Hand-written rather than `set-interval-async` or a cron library: the loops need the jitter
 * and the outage reporting around each pass, which is most of this file either way.
 */
export function startPeriodic(pass: () => Promise<unknown>, options: PeriodicOptions): Periodic {
  const { intervalMs, logger, name } = options;
  const jitter = options.jitter ?? 0;
  const isOutage = options.isOutage ?? (() => true);
  const outage = createOutageReporter(
    logger,
    name,
    options.outageMessage ?? 'failing; retrying every interval',
  );
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const schedule = (waitMs: number) => {
    if (stopped) return;
    timer = setTimeout(tick, waitMs * (1 + Math.random() * jitter));
    // A loop never keeps a process alive on its own: the process ends when its servers do.
    timer.unref();
  };
  const tick = () => {
    running = (async () => {
      try {
        await pass();
        outage.recovered();
      } catch (err) {
        if (isOutage(err)) outage.failed(err);
        else logger.warn({ loop: name, error: errorSummary(err) }, `${name} pass failed`);
      }
    })().finally(() => schedule(intervalMs));
  };

  schedule(options.firstDelayMs ?? Math.min(intervalMs, 1_000));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
