import { randomBytes } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { countUsers, createUser } from '@xt/accounts';
import type { Db } from '@xt/db';

export const DEV_USER_EMAIL = 'dev@localhost';

export function devUserFile(dataDir: string): string {
  return path.join(dataDir, 'dev-user.txt');
}

/**
 * On the first start of the embedded default (no user exists yet) a dashboard user for account
 * `dev` (the development key's account) is created with a random password, printed once and
 * saved to DATA_DIR/dev-user.txt (mode 600).
 */
export async function ensureDevUser(
  db: Db,
  dataDir: string,
): Promise<{ email: string; password: string } | null> {
  if ((await countUsers(db)) > 0) return null;
  const password = randomBytes(15).toString('base64url');
  await createUser(db, { accountName: 'dev', email: DEV_USER_EMAIL, password });
  const file = devUserFile(dataDir);
  await writeFile(file, `email: ${DEV_USER_EMAIL}\npassword: ${password}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { email: DEV_USER_EMAIL, password };
}
