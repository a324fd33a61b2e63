/**
 * Dashboard users: `npm run -s users -- create --account <name> --email <email>` (the password
 * from standard input when it is not a terminal, else asked for without echo),
 * `npm run -s users -- list`.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { createUser, passwordProblem } from '@xt/accounts';
import { formatTimestamp } from '@xt/contract';
import { accounts, users, type Db } from '@xt/db';
import { runCliCommand } from './database.ts';

const USAGE = `usage:
  npm run -s users -- create --account <name> --email <email>   (password on stdin, or prompted)
  npm run -s users -- list
DATABASE_URL names the database (default: the embedded one started by npm start).`;

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    // One trailing newline is the shell's (echo, a here-string), not part of the password.
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  // A terminal: prompt without echoing what is typed.
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk as Buffer);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  const ask = (prompt: string) =>
    new Promise<string>((resolve) => {
      process.stderr.write(prompt);
      muted = true;
      rl.question('', (answer) => {
        muted = false;
        process.stderr.write('\n');
        resolve(answer);
      });
    });
  try {
    const first = await ask('Password (at least 12 characters): ');
    const second = await ask('Again: ');
    if (first !== second) throw new Error('the passwords differ');
    return first;
  } finally {
    rl.close();
  }
}

async function main(argv: string[], db: Db): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { account: { type: 'string' }, email: { type: 'string' } },
    });
    if (!values.account) throw new Error('--account is required');
    if (!values.email) throw new Error('--email is required');
    const password = await readPassword();
    const problem = passwordProblem(password);
    if (problem) throw new Error(`password ${problem}`);
    const user = await createUser(db, {
      accountName: values.account,
      email: values.email,
      password,
    });
    console.log(`created user ${user.email} (${user.id}) in account ${user.accountName}`);
    return 0;
  }
  if (command === 'list') {
    const rows = await db
      .select({
        id: users.id,
        email: users.email,
        account: accounts.name,
        createdAt: users.createdAt,
      })
      .from(users)
      .innerJoin(accounts, eq(accounts.id, users.accountId))
      .orderBy(users.createdAt);
    for (const u of rows)
      console.log([u.id, u.email, u.account, formatTimestamp(u.createdAt)].join('\t'));
    return 0;
  }
  console.error(USAGE);
  return 2;
}

const argv = process.argv.slice(2);
if (!argv[0] || argv[0] === '--help' || argv[0] === 'help') {
  console.log(USAGE);
  process.exit(argv[0] ? 0 : 2);
}
runCliCommand('users-cli', (db) => main(argv, db));
