import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;
// SQLSTATE 55006: the template still has a session (a pool closing lazily, a parallel clone).
const OBJECT_IN_USE = '55006';

function identifier(name: string): string {
  if (!NAME.test(name)) {
    throw new Error(`database name ${JSON.stringify(name)} must match ${NAME.source}`);
  }
  return `"${name}"`;
}

/** `adminUrl` with its database swapped for `name`: same server, credentials and options. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database name no other run on the same server will pick: the label, this process and
 * random bytes. Labels should be stable per purpose, so `dropStaleDatabases` can find leftovers.
 */
export function uniqueDatabaseName(label = 'xt_test'): string {
  const name = `${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
  identifier(name);
  return name;
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'xt-testkit' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops `name`, disconnecting whoever is still connected to it. No error when it is absent. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const quoted = identifier(name);
  await withAdmin(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`),
  );
}

/**
 * (Re)creates `name` and runs `migrate` against it, leaving it ready to be cloned: any session
 * the migration left open is ended, because PostgreSQL copies only an idle template.
 * Returns the template's URL.
 */
export async function createTemplateDatabase(
  adminUrl: string,
  name: string,
  migrate: (url: string) => Promise<void>,
): Promise<string> {
  const quoted = identifier(name);
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoted}`);
  });
  const url = databaseUrl(adminUrl, name);
  try {
    await migrate(url);
  } catch (error) {
    await dropDatabase(adminUrl, name).catch(() => undefined);
    throw error;
  }
  await withAdmin(adminUrl, (client) =>
    client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    ),
  );
  return url;
}

/** Creates `name` as a copy of `template` and returns its URL. */
export async function cloneDatabase(
  adminUrl: string,
  template: string,
  name: string,
): Promise<string> {
  const statement = `CREATE DATABASE ${identifier(name)} TEMPLATE ${identifier(template)}`;
  await withAdmin(adminUrl, async (client) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await client.query(statement);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt >= 50) throw error;
        await sleep(Math.min(20 * attempt, 200));
      }
    }
  });
  return databaseUrl(adminUrl, name);
}

export interface StaleDatabaseOptions {
  /** Only databases whose names start with one of these are considered. */
  prefixes: readonly string[];
  /** Default one day: old enough that no test run can still be using it. */
  olderThanMs?: number;
}

/**
 * Drops databases with the given prefixes that crashed or interrupted runs left behind.
 * Age comes from the PG_VERSION file PostgreSQL writes into every new database, which needs
 * superuser rights (or pg_read_server_files); without them nothing is dropped.
 * Returns the names dropped.
 */
export async function dropStaleDatabases(
  adminUrl: string,
  options: StaleDatabaseOptions,
): Promise<string[]> {
  const olderThanMs = options.olderThanMs ?? 24 * 60 * 60 * 1000;
  const candidates = await withAdmin(adminUrl, async (client) => {
    try {
      const result = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database
          WHERE NOT datistemplate
            AND datname LIKE ANY ($1::text[])
            AND (pg_stat_file('base/' || oid || '/PG_VERSION')).modification < now() - make_interval(secs => $2)`,
        [
          options.prefixes.map((prefix) => `${prefix.replace(/[\\%_]/g, '\\$&')}%`),
          olderThanMs / 1000,
        ],
      );
      return result.rows.map((row) => row.datname);
    } catch {
      return [];
    }
  });
  const dropped: string[] = [];
  for (const name of candidates.filter((candidate) => NAME.test(candidate))) {
    await dropDatabase(adminUrl, name);
    dropped.push(name);
  }
  return dropped;
}
