import { describe, expect, it } from 'vitest';
import { authenticateKey } from '@xt/accounts';
import { cliDatabase, runCli } from '../../test/cli.ts';

const database = cliDatabase();

/** Runs the keys CLI and answers its standard output's lines; fails on a non-zero exit. */
async function keys(...args: string[]) {
  const run = await runCli('keys', database.url, args);
  expect(run).toMatchObject({ code: 0 });
  return run.stdout.trimEnd().split('\n');
}

describe('npm run keys', () => {
  it('creates a key shown alone on the last line, lists it, and revokes it by prefix', async () => {
    const created = await keys('create', '--account', 'cli-test', '--scope', 'read');
    const key = created.at(-1)!;
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(await authenticateKey(database.db, key)).toMatchObject({ scope: 'read' });

    const listed = (await keys('list')).join('\n');
    expect(listed).toContain(key.slice(0, 14));
    expect(listed).toMatch(/last used \d{4}-/);
    expect(listed).toContain('cli-test');
    expect(listed).not.toContain(key);

    await keys('revoke', key.slice(0, 14));
    expect(await authenticateKey(database.db, key)).toBeNull();
    expect((await keys('list')).join('\n')).toMatch(/revoked/);
  });

  it('refuses a bad scope with a message and a non-zero exit', async () => {
    expect(
      await runCli('keys', database.url, ['create', '--account', 'x', '--scope', 'admin']),
    ).toMatchObject({ code: 1, stderr: expect.stringContaining('--scope must be read or write') });
  });
});
