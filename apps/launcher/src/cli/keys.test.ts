import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateKey } from '@xt/accounts';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, REPO_ROOT, type TestDatabase } from '@xt/testkit';

const run = promisify(execFile);
let database: TestDatabase;
let handle: DbHandle;

async function keys(...args: string[]) {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'apps/launcher/src/cli/keys.ts', ...args],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: database.url },
    },
  );
  return stdout.trimEnd().split('\n');
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 1 });
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('npm run keys', () => {
  it('creates a key shown alone on the last line, lists it, and revokes it by prefix', async () => {
    const created = await keys('create', '--account', 'cli-test', '--scope', 'read');
    const key = created.at(-1)!;
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(await authenticateKey(handle.db, key)).toMatchObject({ scope: 'read' });

    const listed = (await keys('list')).join('\n');
    expect(listed).toContain(key.slice(0, 14));
    expect(listed).toMatch(/last used \d{4}-/);
    expect(listed).toContain('cli-test');
    expect(listed).not.toContain(key);

    await keys('revoke', key.slice(0, 14));
    expect(await authenticateKey(handle.db, key)).toBeNull();
    expect((await keys('list')).join('\n')).toMatch(/revoked/);
  });

  it('refuses a bad scope with a message and a non-zero exit', async () => {
    await expect(keys('create', '--account', 'x', '--scope', 'admin')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--scope must be read or write'),
    });
  });
});
