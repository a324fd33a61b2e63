/**
 * Once per test run: find PostgreSQL and Redis (the environment's, testcontainers', or embedded
 * ones), build a migrated template database that every test file clones, and hand the
 * addresses to the tests through vitest's provide/inject.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import './harness/provided.ts';
import { runMigrations } from '@xt/db';
import { ensureSystemPackages } from '@xt/embedded';
import {
  createTemplateDatabase,
  dropDatabase,
  dropStaleDatabases,
  resolveTestServers,
} from './env/index.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The same list and rules as `npm start`: a fresh machine gets what the suite needs (Chromium
  // for webpage tests, redis-server unless a server is named) or the command that installs it.
  await ensureSystemPackages({
    purpose: 'test',
    env: { ...process.env, REDIS_URL: process.env.TEST_REDIS_URL || process.env.REDIS_URL },
    log: (line) => console.log(`[test setup] ${line}`),
  });
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
