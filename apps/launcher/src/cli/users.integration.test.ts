import { describe, expect, it } from 'vitest';
import { checkCredentials } from '@xt/accounts';
import { cliDatabase, runCli } from '../../test/cli.ts';

const database = cliDatabase();

/** Runs the users CLI with `stdin` piped in (so not a terminal). */
const users = (stdin: string, ...args: string[]) => runCli('users', database.url, args, stdin);

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
    const user = await checkCredentials(database.db, 'ana@acme.test', 'a long enough password');
    expect(user).toMatchObject({ email: 'ana@acme.test', accountName: 'acme' });
    expect(
      await checkCredentials(database.db, 'ana@acme.test', 'a long enough passwor'),
    ).toBeNull();
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
