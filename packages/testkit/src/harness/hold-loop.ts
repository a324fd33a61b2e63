/**
 * Calls `start` (which sets a call to a dependency going) and then holds this process's event
 * loop for `ms` without returning to it, as parsing a large request body does: from a callback
 * of the check phase, so that the loop's next steps are its timers, then reading its sockets.
 * Answers what `start` returned, wrapped so a promise is handed back unsettled.
 */
export function whileLoopHeld<T>(start: () => T, ms: number): Promise<{ started: T }> {
  return new Promise((resolve, reject) => {
    setImmediate(() => {
      try {
        const started = start();
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
        resolve({ started });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}
