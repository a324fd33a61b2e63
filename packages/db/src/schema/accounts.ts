/** Accounts, their API keys, dashboard users and sessions: packages/accounts owns them. */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts, bytea } from './columns.ts';

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Only a SHA-256 of each key is stored (keys are 190+ bits of randomness, so a slow KDF adds
 * nothing), with a short display prefix so people can tell keys apart in `keys list`.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    hash: bytea('hash').notNull(),
    displayPrefix: text('display_prefix').notNull(),
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    label: text('label'),
    createdAt: ts('created_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('api_keys_hash_idx').on(t.hash),
    check('api_keys_scope_check', sql`${t.scope} in ('read', 'write')`),
  ],
);

/**
 * People who sign in to the dashboard. Each belongs to one account and sees only its data.
 * `email` is stored lower-cased (unique), so sign-in is case-insensitive without citext.
 * `password_hash` is a self-describing scrypt string (`scrypt$N$r$p$salt$hash`), so the cost
 * parameters can be raised later without invalidating stored hashes.
 */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Dashboard sessions, server-side so signing out (deleting the row) ends them at once. Only a
 * SHA-256 of the cookie's random token is stored: a database dump opens no session.
 * `expires_at` slides forward with use, never past `created_at` + the absolute lifetime.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: bytea('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_idx').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

export type Account = typeof accounts.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
