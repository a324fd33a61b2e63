import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { countKeys, createKey } from '@xt/accounts';
import type { Db } from '@xt/db';

export function devKeyFile(dataDir: string): string {
  return path.join(dataDir, 'dev-api-key.txt');
}

/**
 * On the first start of the embedded default (no key exists yet) a write key for account `dev`
 * is created, printed once and saved to DATA_DIR/dev-api-key.txt (mode 600).
 */
export async function ensureDevKey(db: Db, dataDir: string): Promise<string | null> {
  if ((await countKeys(db)) > 0) return null;
  const created = await createKey(db, {
    accountName: 'dev',
    scope: 'write',
    label: 'development key created by npm start',
  });
  const file = devKeyFile(dataDir);
  await writeFile(file, `${created.key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return created.key;
}
