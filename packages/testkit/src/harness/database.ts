import { randomBytes } from 'node:crypto';
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

export function testRedisUrl(): string {
  return inject('testRedisUrl');
}
