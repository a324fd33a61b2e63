/**
 * Key management: `npm run keys -- create --account <name> [--scope read|write] [--label <text>]`,
 * `npm run keys -- list`, `npm run keys -- revoke <id-or-prefix>`. `create` prints the new key
 * alone on the last line of standard output; it is never shown again.
 */
import { createKey, listKeys, revokeKey } from '@xt/accounts';
import { formatTimestamp } from '@xt/contract';
import { runSubcommands, subcommand } from './subcommands.ts';

const USAGE = `usage:
  npm run keys -- create --account <name> [--scope read|write] [--label <text>]
  npm run keys -- list
  npm run keys -- revoke <key-id-or-display-prefix>
DATABASE_URL names the database (default: the embedded one started by npm start).`;

runSubcommands('keys-cli', USAGE, {
  create: subcommand({
    options: {
      account: { type: 'string' },
      scope: { type: 'string', default: 'write' },
      label: { type: 'string' },
    },
    required: ['account'],
    async run(values, _positionals, db) {
      if (values.scope !== 'read' && values.scope !== 'write')
        throw new Error('--scope must be read or write');
      const created = await createKey(db, {
        accountName: values.account!,
        scope: values.scope,
        ...(values.label ? { label: values.label } : {}),
      });
      console.log(
        `created ${created.scope} key ${created.id} (${created.displayPrefix}…) for account ${created.accountName}`,
      );
      console.log(created.key);
    },
  }),
  list: subcommand({
    options: {},
    async run(_values, _positionals, db) {
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
    },
  }),
  revoke: subcommand({
    options: {},
    async run(_values, [target], db) {
      if (!target) throw new Error('revoke needs a key id or display prefix');
      const revoked = await revokeKey(db, target);
      console.log(`revoked ${revoked.id} (${revoked.displayPrefix}…)`);
    },
  }),
});
