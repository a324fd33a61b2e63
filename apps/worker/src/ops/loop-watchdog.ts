/**
 * Watches the worker's event loop. A job whose synchronous work runs long starves BullMQ's lock
 * renewals and every other job in the process; while that lasts the worker must not look
 * healthy. A timer beats every `intervalMs`; the loop counts as blocked while the last beat is
 * older than `thresholdMs`, and after such a gap until the loop has beaten freely for
 * `thresholdMs`, so the answer given by the first request served after the loop frees up still
 * tells of it. That memory is counted in beats, not in time: on a busy machine the process can be
 * descheduled between the beat that saw the gap and the requests waiting behind it, and a
 * stall must not count as the loop having recovered.
 *
 * While the loop is blocked nothing on it can answer at all: the container health check asks
 * with a timeout (healthcheck.ts), so no answer counts as unhealthy too.
 */
export interface LoopWatchdog {
  /** How long the loop has gone without a beat now, past the interval. */
  lagMs(): number;
  /** False while the loop is (or just was) blocked past the threshold. */
  healthy(): boolean;
  stop(): void;
}

export function startLoopWatchdog(opts: {
  thresholdMs: number;
  intervalMs?: number;
}): LoopWatchdog {
  const intervalMs = opts.intervalMs ?? Math.max(10, Math.min(250, opts.thresholdMs / 4));
  const freeBeatsToRecover = Math.ceil(opts.thresholdMs / intervalMs);
  let last = performance.now();
  let beatsOwed = 0;
  const lagMs = () => Math.max(0, performance.now() - last - intervalMs);
  const beat = setInterval(() => {
    const lag = lagMs();
    last = performance.now();
    if (lag > opts.thresholdMs) beatsOwed = freeBeatsToRecover;
    else if (beatsOwed > 0) beatsOwed -= 1;
  }, intervalMs);
  // The watchdog alone never keeps a stopping process alive.
  beat.unref();
  return {
    lagMs,
    healthy: () => lagMs() <= opts.thresholdMs && beatsOwed === 0,
    stop: () => clearInterval(beat),
  };
}
