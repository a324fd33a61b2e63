/**
 * Below this lateness a timer counts as on time: the loop was only taking its turns.
 */
const LATE_MS = 50;

/**
 * A timeout for a call to a dependency (PostgreSQL, Redis) that does not charge the dependency
 * for time this process could not have heard its answer in. A plain timer does: after the event
 * loop was blocked (a large body parsed, the machine giving the process no CPU), Node runs the
 * expired timers before it reads the sockets, so an answer that arrived meanwhile is reported as
 * a timeout, and a busy process calls a healthy dependency down.
 *
 * Here a timer that fires late gets one extension, as long as it was late by (at most `ms`
 * again), so the call has time to finish on a loop that turns again; and before giving up the
 * loop reads its sockets once more (`setImmediate` runs after the poll phase). While the loop
 * turns freely it fires after `ms`, as a plain timer would; a dependency that hangs while the
 * process is busy still fails, after at most about three times `ms` plus the loop's delays.
 *
 * Hand-written: the timers of the clients (node-postgres, ioredis) cannot be told this, and no
 * maintained package offers it. Returns the cancel function.
 */
export function patientTimeout(ms: number, onTimeout: () => void): () => void {
  let due = performance.now() + ms;
  let extended = false;
  let over = false;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const fire = () => {
    const now = performance.now();
    const late = now - due;
    if (late > LATE_MS && !extended) {
      extended = true;
      due = now + Math.min(late, ms);
      timer = setTimeout(fire, due - now);
      return;
    }
    immediate = setImmediate(() => {
      if (over) return;
      over = true;
      onTimeout();
    });
  };
  timer = setTimeout(fire, ms);
  return () => {
    over = true;
    clearTimeout(timer);
    clearImmediate(immediate);
  };
}
