import { expect, test } from 'vitest';
import { loadEmbeddedPostgres } from './load-embedded-postgres.ts';

const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'message'];
const emitter: NodeJS.EventEmitter = process;
const listenerCounts = () => events.map((event) => emitter.listenerCount(event));

// A `beforeExit` listener that calls process.exit(0) turned every failed test run into exit 0.
test('loading embedded-postgres leaves no exit or signal listeners of its own behind', async () => {
  const before = listenerCounts();
  const Server = await loadEmbeddedPostgres();
  expect(typeof Server).toBe('function');
  expect(listenerCounts()).toEqual(before);
});
