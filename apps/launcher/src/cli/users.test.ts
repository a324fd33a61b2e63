import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCredentials } from '@xt/accounts';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, REPO_ROOT, type TestDatabase } from '@xt/testkit';

let database: TestDatabase;
let handle: DbHandle;

/** Runs the users CLI with `stdin` piped in (so not a terminal). */
function users(stdin: string, ...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/launcher/src/cli/users.ts', ...args],
      { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: database.url } },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 1 });
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('npm run users', () => {
  it('creates a user whose password comes from standard input', async () => {
    const made = await users(
      'a long enough password\n',
      'create',
      '--account',
      'acme',
      '--email',
      'Ana@Acme.test',
    );
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('ana@acme.test');
    expect(made.stdout).not.toContain('a long enough password');
    const user = await checkCredentials(handle.db, 'ana@acme.test', 'a long enough password');
    expect(user).toMatchObject({ email: 'ana@acme.test', accountName: 'acme' });
    expect(await checkCredentials(handle.db, 'ana@acme.test', 'a long enough passwor')).toBeNull();
    expect((await users('', 'list')).stdout).toContain('ana@acme.test');
  });

  it('refuses a password shorter than 12 characters and a taken email', async () => {
    const short = await users(
      'short pass\n',
      'create',
      '--account',
      'acme',
      '--email',
      'bo@acme.test',
    );
    expect(short).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('at least 12 characters'),
    });
    const taken = await users(
      'another long password',
      'create',
      '--account',
      'x',
      '--email',
      'ana@acme.test',
    );
    expect(taken).toMatchObject({ code: 1, stderr: expect.stringContaining('already exists') });
  });
});
