import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  cloneDatabase,
  createTemplateDatabase,
  databaseUrl,
  dropDatabase,
  dropStaleDatabases,
  uniqueDatabaseName,
} from './databases.ts';

const admin = inject('testDatabaseAdminUrl');
const created: string[] = [];

function track(name: string): string {
  created.push(name);
  return name;
}

afterAll(async () => {
  for (const name of created) await dropDatabase(admin, name);
});

async function rows(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function exists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return (
      (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
    );
  } finally {
    await client.end();
  }
}

describe('template and clone databases', () => {
  it('clones a migrated template even when the migration left a session open', async () => {
    const template = track(uniqueDatabaseName('xt_envtest_tpl'));
    let leaked: pg.Client | undefined;
    await createTemplateDatabase(admin, template, async (url) => {
      leaked = new pg.Client({ connectionString: url });
      leaked.on('error', () => undefined);
      await leaked.connect();
      await leaked.query("CREATE TABLE things (name text); INSERT INTO things VALUES ('kept')");
    });

    const clone = track(uniqueDatabaseName('xt_envtest'));
    const url = await cloneDatabase(admin, template, clone);
    expect(url).toBe(databaseUrl(admin, clone));
    expect(await rows(url, 'SELECT name FROM things')).toEqual([{ name: 'kept' }]);

    await rows(url, "INSERT INTO things VALUES ('only in the clone')");
    expect(
      await rows(databaseUrl(admin, template), 'SELECT count(*)::int AS n FROM things'),
    ).toEqual([{ n: 1 }]);
    await leaked?.end().catch(() => undefined);
  });

  it('waits for a template that is briefly in use instead of failing', async () => {
    const template = track(uniqueDatabaseName('xt_envtest_tpl'));
    await createTemplateDatabase(admin, template, () => Promise.resolve());
    const visitor = new pg.Client({ connectionString: databaseUrl(admin, template) });
    await visitor.connect();
    const leaving = new Promise((done) => setTimeout(done, 300)).then(() => visitor.end());

    const clone = track(uniqueDatabaseName('xt_envtest'));
    await cloneDatabase(admin, template, clone);
    await leaving;
    expect(await exists(clone)).toBe(true);
  });

  it('drops a database with sessions still connected, and tolerates dropping it twice', async () => {
    const name = track(uniqueDatabaseName('xt_envtest'));
    await createTemplateDatabase(admin, name, () => Promise.resolve());
    const session = new pg.Client({ connectionString: databaseUrl(admin, name) });
    session.on('error', () => undefined);
    await session.connect();
    await dropDatabase(admin, name);
    expect(await exists(name)).toBe(false);
    await dropDatabase(admin, name);
    await session.end().catch(() => undefined);
  });

  it('removes the template again when the migration fails', async () => {
    const template = track(uniqueDatabaseName('xt_envtest_tpl'));
    await expect(
      createTemplateDatabase(admin, template, () => Promise.reject(new Error('bad migration'))),
    ).rejects.toThrow('bad migration');
    expect(await exists(template)).toBe(false);
  });

  it('refuses names that would need quoting', async () => {
    await expect(dropDatabase(admin, 'x"; DROP DATABASE postgres; --')).rejects.toThrow(
      /must match/,
    );
    expect(() => uniqueDatabaseName('Upper')).toThrow(/must match/);
  });

  it('drops leftovers with a given prefix only once they are old enough', async () => {
    const prefix = `xt_stale_${randomBytes(3).toString('hex')}_`;
    const leftover = track(`${prefix}old`);
    const bystander = track(uniqueDatabaseName('xt_envtest'));
    await createTemplateDatabase(admin, leftover, () => Promise.resolve());
    await createTemplateDatabase(admin, bystander, () => Promise.resolve());

    expect(await dropStaleDatabases(admin, { prefixes: [prefix] })).toEqual([]);
    expect(await dropStaleDatabases(admin, { prefixes: [prefix], olderThanMs: 0 })).toEqual([
      leftover,
    ]);
    expect(await exists(leftover)).toBe(false);
    expect(await exists(bystander)).toBe(true);
  });

  it('keeps credentials and options when pointing a URL at another database', () => {
    expect(
      databaseUrl('postgres://u:p%40ss@127.0.0.1:5433/postgres?sslmode=disable', 'other'),
    ).toBe('postgres://u:p%40ss@127.0.0.1:5433/other?sslmode=disable');
  });
});
