/**
 * Dashboard users: `npm run -s users -- create --account <name> --email <email>` (the password
 * from standard input when it is not a terminal, else asked for without echo),
 * `npm run -s users -- list`.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { createUser, listUsers, passwordProblem } from '@xt/accounts';
import { formatTimestamp } from '@xt/contract';
import { runSubcommands, subcommand } from './subcommands.ts';

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

runSubcommands('users-cli', USAGE, {
  create: subcommand({
    options: { account: { type: 'string' }, email: { type: 'string' } },
    required: ['account', 'email'],
    async run(values, _positionals, db) {
      const password = await readPassword();
      const problem = passwordProblem(password);
      if (problem) throw new Error(`password ${problem}`);
      const user = await createUser(db, {
        accountName: values.account!,
        email: values.email!,
        password,
      });
      console.log(`created user ${user.email} (${user.id}) in account ${user.accountName}`);
    },
  }),
  list: subcommand({
    options: {},
    async run(_values, _positionals, db) {
      for (const u of await listUsers(db))
        console.log([u.id, u.email, u.account, formatTimestamp(u.createdAt)].join('\t'));
    },
  }),
});
