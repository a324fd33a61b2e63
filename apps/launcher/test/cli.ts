/** What the CLI tests share: a database of their own, and running a CLI as `npm run` would. */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { createDb, type Db, type DbHandle } from '@xt/db';
import { createTestDatabase, REPO_ROOT, TS_NODE_ARGS, type TestDatabase } from '@xt/testkit';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh database for this test file, created before its tests and dropped after them. */
export function cliDatabase(): { readonly url: string; readonly db: Db } {
  let database: TestDatabase | undefined;
  let handle: DbHandle | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    handle = createDb(database.url, { max: 1 });
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });
  return {
    get url() {
      if (!database) throw new Error('cliDatabase() is ready only inside tests');
      return database.url;
    },
    get db() {
      if (!handle) throw new Error('cliDatabase() is ready only inside tests');
      return handle.db;
    },
  };
}

/** Runs apps/launcher/src/cli/<cli>.ts against `databaseUrl`, `stdin` piped in (not a terminal). */
export function runCli(
  cli: 'keys' | 'users',
  databaseUrl: string,
  args: string[],
  stdin = '',
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...TS_NODE_ARGS, `apps/launcher/src/cli/${cli}.ts`, ...args],
      { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}
