/**
 * An API whose port another process holds says in one line which setting to change and exits
 * with the settings status (which the launcher does not restart), instead of a stack trace.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_EXIT_CODE } from '@xt/runtime';
import { createTestDatabase, runAppToExit, testRedisUrl, type TestDatabase } from '@xt/testkit';

let database: TestDatabase;
let holder: Server;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase();
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => holder?.close(resolve));
  await database?.drop();
});

describe('an API whose port is taken', () => {
  it('exits with one line naming PORT, and no stack trace', async () => {
    const { code, output } = await runAppToExit(
      'apps/api/src/main.ts',
      {
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        LOG_FORMAT: 'json',
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      90_000,
    );
    expect(code, output).toBe(SETTINGS_EXIT_CODE);
    const fatal = output.split('\n').filter((line) => line.includes('"level":60'));
    expect(fatal).toHaveLength(1);
    expect(JSON.parse(fatal[0]!).msg).toBe(
      `the API cannot listen on 127.0.0.1:${port}: another process listens there; ` +
        'set PORT to a free port (HOST chooses the address)',
    );
    expect(output).not.toMatch(/^ {4}at /m);
  }, 120_000);
});
