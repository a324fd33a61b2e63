/**
 * Once per test run: find PostgreSQL and Redis (the environment's, testcontainers', or embedded
 * ones), build a migrated template database that every test file clones, and hand the
 * addresses to the tests through vitest's provide/inject.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import './harness/provided.ts';
import { runMigrations } from '@xt/db';
import {
  createTemplateDatabase,
  dropDatabase,
  dropStaleDatabases,
  resolveTestServers,
} from './env/index.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers = await resolveTestServers();
  // Runs that were killed leave their databases behind; clear those older than a day.
  await dropStaleDatabases(servers.databaseUrl, { prefixes: ['xt_tpl_', 'xt_test_'] }).catch(
    () => [],
  );
  const template = `xt_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
  await createTemplateDatabase(servers.databaseUrl, template, (url) => runMigrations(url));
  project.provide('testDatabaseAdminUrl', servers.databaseUrl);
  project.provide('testTemplateDatabase', template);
  project.provide('testRedisUrl', servers.redisUrl);
  return async () => {
    await dropDatabase(servers.databaseUrl, template).catch(() => undefined);
    await servers.stop();
  };
}
