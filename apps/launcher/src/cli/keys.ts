/**
 * Key management: `npm run keys -- create --account <name> [--scope read|write] [--label <text>]`,
 * `npm run keys -- list`, `npm run keys -- revoke <id-or-prefix>`. `create` prints the new key
 * alone on the last line of standard output; it is never shown again.
 */
import { parseArgs } from 'node:util';
import { createKey, listKeys, revokeKey } from '@xt/accounts';
import { createDb, runMigrations } from '@xt/db';
import { formatTimestamp } from '@xt/contract';
import { z } from 'zod';
import type { RunningServer } from '@xt/embedded';
import { loadLauncherConfig } from '../config.ts';
import { readRunningStack, startLocalPostgres } from '../local-servers.ts';

const USAGE = `usage:
  npm run keys -- create --account <name> [--scope read|write] [--label <text>]
  npm run keys -- list
  npm run keys -- revoke <key-id-or-display-prefix>
DATABASE_URL names the database (default: the embedded one started by npm start).`;

const env = z.object({ DATABASE_URL: z.url() }).safeParse(process.env);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const databaseUrl = env.success ? env.data.DATABASE_URL : await embeddedDatabaseUrl();
  await runMigrations(databaseUrl);
  const handle = createDb(databaseUrl, { max: 1, applicationName: 'keys-cli' });
  try {
    if (command === 'create') {
      const { values } = parseArgs({
        args: rest,
        options: {
          account: { type: 'string' },
          scope: { type: 'string', default: 'write' },
          label: { type: 'string' },
        },
      });
      if (!values.account) throw new Error('--account is required');
      if (values.scope !== 'read' && values.scope !== 'write')
        throw new Error('--scope must be read or write');
      const created = await createKey(handle.db, {
        accountName: values.account,
        scope: values.scope,
        ...(values.label ? { label: values.label } : {}),
      });
      console.log(
        `created ${created.scope} key ${created.id} (${created.displayPrefix}…) for account ${created.accountName}`,
      );
      console.log(created.key);
      return 0;
    }
    if (command === 'list') {
      for (const k of await listKeys(handle.db))
        console.log(
          [
            k.id,
            `${k.displayPrefix}…`,
            k.scope,
            k.account,
            formatTimestamp(k.createdAt),
            k.revokedAt ? `revoked ${formatTimestamp(k.revokedAt)}` : 'active',
            k.lastUsedAt ? `last used ${formatTimestamp(k.lastUsedAt)}` : 'never used',
          ].join('\t'),
        );
      return 0;
    }
    if (command === 'revoke') {
      const target = rest[0];
      if (!target) throw new Error('revoke needs a key id or display prefix');
      const revoked = await revokeKey(handle.db, target);
      console.log(`revoked ${revoked.id} (${revoked.displayPrefix}…)`);
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await handle.close();
  }
}

/**
 * Without DATABASE_URL, talk to the embedded database `npm start` uses: the running one when
 * `npm start` is up, else start it just for this command.
 */
async function embeddedDatabaseUrl(): Promise<string> {
  const { DATA_DIR } = loadLauncherConfig();
  const running = await readRunningStack(DATA_DIR);
  if (running) return running.databaseUrl;
  const local = await startLocalPostgres(DATA_DIR, (line) => console.error(line));
  stopAfter = local.server;
  return local.databaseUrl;
}

let stopAfter: RunningServer | undefined;

main(process.argv.slice(2)).then(
  async (code) => {
    await stopAfter?.stop();
    process.exit(code);
  },
  (err: unknown) => {
    console.error(`error: ${(err as Error).message}`);
    void (stopAfter?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
  },
);
