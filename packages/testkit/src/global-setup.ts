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

interface Prepared {
  databaseUrl: string;
  template: string;
  redisUrl: string;
  stop(): Promise<void>;
}

interface Shared {
  prepared: Promise<Prepared> | undefined;
  users: number;
}

// Several vitest projects (integration, browser) list this set-up, and vitest calls it once
// for each of them in the same process, possibly through separately loaded copies of this
// module: they share one set of servers and one template through the process, and the last
// project to finish stops them.
const key = Symbol.for('xt.testkit.globalSetup');
const holder = globalThis as typeof globalThis & { [key]?: Shared };
const shared: Shared = (holder[key] ??= { prepared: undefined, users: 0 });

async function prepare(): Promise<Prepared> {
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
  return {
    databaseUrl: servers.databaseUrl,
    template,
    redisUrl: servers.redisUrl,
    async stop() {
      await dropDatabase(servers.databaseUrl, template).catch(() => undefined);
      await servers.stop();
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.users += 1;
  shared.prepared ??= prepare();
  const prepared = await shared.prepared;
  project.provide('testDatabaseAdminUrl', prepared.databaseUrl);
  project.provide('testTemplateDatabase', prepared.template);
  project.provide('testRedisUrl', prepared.redisUrl);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    shared.prepared = undefined;
    await prepared.stop();
  };
}
