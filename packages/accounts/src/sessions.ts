import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import { accounts, sessions, users, type Db } from '@xt/db';
import type { DashboardUser } from './users.ts';

export interface SessionLifetime {
  /** Idle lifetime: a session unused this long expires. */
  idleMs: number;
  /** Absolute lifetime: no session lives longer, however busy. */
  absoluteMs: number;
}

export interface OpenSession {
  id: string;
  user: DashboardUser;
  expiresAt: Date;
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/**
 * The anti-CSRF token of a session: derived from the session token, so nothing more is stored,
 * and useless without the HttpOnly cookie it came from.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`csrf\0${sessionToken}`, 'utf8').digest('base64url');
}

export async function openSession(
  db: Db,
  userId: string,
  lifetime: SessionLifetime,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + Math.min(lifetime.idleMs, lifetime.absoluteMs));
  await db.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
  // Expired rows of everyone are swept here, where sessions are made, rather than by a timer.
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
  return { token, expiresAt };
}

/**
 * The live session a cookie names, or null. Slides the expiry forward once half the idle
 * lifetime has passed (one write per half-lifetime, not per request), capped by the absolute one.
 */
export async function findSession(
  db: Db,
  token: string,
  lifetime: SessionLifetime,
): Promise<OpenSession | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      email: users.email,
      accountId: users.accountId,
      accountName: accounts.name,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, sql`now()`)));
  if (!row) return null;
  let expiresAt = row.expiresAt;
  const now = Date.now();
  if (expiresAt.getTime() - now < lifetime.idleMs / 2) {
    const slid = Math.min(now + lifetime.idleMs, row.createdAt.getTime() + lifetime.absoluteMs);
    if (slid > expiresAt.getTime()) {
      expiresAt = new Date(slid);
      await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, row.id));
    }
  }
  return {
    id: row.id,
    expiresAt,
    user: {
      id: row.userId,
      email: row.email,
      accountId: row.accountId,
      accountName: row.accountName,
    },
  };
}

export async function closeSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/**
 * Ends every session of a user but the one named by `keepToken` (none when omitted): "sign out
 * everywhere", and what a password change does to the sessions a thief may hold.
 */
export async function closeUserSessions(
  db: Db,
  userId: string,
  keepToken?: string,
): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(
      keepToken
        ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, hashToken(keepToken)))
        : eq(sessions.userId, userId),
    )
    .returning({ id: sessions.id });
  return rows.length;
}
