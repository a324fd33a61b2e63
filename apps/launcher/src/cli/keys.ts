/**
 * Key management: `npm run keys -- create --account <name> [--scope read|write] [--label <text>]`,
 * `npm run keys -- list`, `npm run keys -- revoke <id-or-prefix>`. `create` prints the new key
 * alone on the last line of standard output; it is never shown again.
 */
import { parseArgs } from 'node:util';
import { createKey, listKeys, revokeKey } from '@xt/accounts';
import type { Db } from '@xt/db';
import { formatTimestamp } from '@xt/contract';
import { runCliCommand } from './database.ts';

const USAGE = `usage:
  npm run keys -- create --account <name> [--scope read|write] [--label <text>]
  npm run keys -- list
  npm run keys -- revoke <key-id-or-display-prefix>
DATABASE_URL names the database (default: the embedded one started by npm start).`;

async function main(argv: string[], db: Db): Promise<number> {
  const [command, ...rest] = argv;
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
    const created = await createKey(db, {
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
    for (const k of await listKeys(db))
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
    const revoked = await revokeKey(db, target);
    console.log(`revoked ${revoked.id} (${revoked.displayPrefix}…)`);
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
runCliCommand('keys-cli', (db) => main(argv, db));
