import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { cloneDatabase, dropDatabase } from '../env/index.ts';
import './provided.ts';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template: each test file gets its own. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = inject('testDatabaseAdminUrl');
  const template = inject('testTemplateDatabase');
  const name = `xt_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = await cloneDatabase(admin, template, name);
  return { url, name, drop: () => dropDatabase(admin, name) };
}

/**
 * A small pool for a test to read its database directly. Dropping the database at the end
 * terminates its connections, and a pool without an error listener turns that into an uncaught
 * exception that fails the whole run; here it is expected and ignored.
 */
export function openTestPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // On the pool for idle clients, and on each client for one the pool is already ending.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export function testRedisUrl(): string {
  return inject('testRedisUrl');
}
