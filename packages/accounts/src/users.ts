import { eq } from 'drizzle-orm';
import { accounts, users, type Db } from '@xt/db';
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from './passwords.ts';

export interface DashboardUser {
  id: string;
  email: string;
  accountId: string;
  accountName: string;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Deliberately loose: one @ with something either side. The address is a login name here. */
export function emailProblem(email: string): string | null {
  const e = normalizeEmail(email);
  if (e.length > 254) return 'must be at most 254 characters';
  return /^[^\s@]+@[^\s@]+$/.test(e) ? null : 'must be an email address';
}

/** Creates the account when it does not exist yet, then the user. */
export async function createUser(
  db: Db,
  input: { accountName: string; email: string; password: string },
): Promise<DashboardUser> {
  const accountName = input.accountName.trim();
  if (!accountName) throw new Error('account name must not be empty');
  const emailIssue = emailProblem(input.email);
  if (emailIssue) throw new Error(`email ${emailIssue}`);
  const passwordIssue = passwordProblem(input.password);
  if (passwordIssue) throw new Error(`password ${passwordIssue}`);
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await tx.insert(accounts).values({ name: accountName }).onConflictDoNothing();
    const [account] = await tx.select().from(accounts).where(eq(accounts.name, accountName));
    if (!account) throw new Error(`account ${accountName} could not be created`);
    const [row] = await tx
      .insert(users)
      .values({ accountId: account.id, email, passwordHash })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!row) throw new Error(`a user with email ${email} already exists`);
    return { id: row.id, email, accountId: account.id, accountName: account.name };
  });
}

/** The user whose email and password match; null otherwise, in about the same time either way. */
export async function checkCredentials(
  db: Db,
  email: string,
  password: string,
): Promise<DashboardUser | null> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      passwordHash: users.passwordHash,
      accountId: users.accountId,
      accountName: accounts.name,
    })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.email, normalizeEmail(email)));
  const ok = await verifyPassword(password, row?.passwordHash ?? (await decoyHash()));
  if (!row || !ok) return null;
  return { id: row.id, email: row.email, accountId: row.accountId, accountName: row.accountName };
}

/** Every dashboard user with their account's name, oldest first (`npm run users -- list`). */
export function listUsers(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      account: accounts.name,
      createdAt: users.createdAt,
    })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .orderBy(users.createdAt);
}

export async function countUsers(db: Db): Promise<number> {
  return db.$count(users);
}

/**
 * Sets a user's password when `current` is theirs: false (and nothing changed) when it is not.
 * The caller ends the user's other sessions, so a password changed after a theft locks the
 * thief out too.
 */
export async function changePassword(
  db: Db,
  userId: string,
  current: string,
  next: string,
): Promise<boolean> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  if (!row || !(await verifyPassword(current, row.passwordHash))) return false;
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(next) })
    .where(eq(users.id, userId));
  return true;
}
