import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createHash } from 'node:crypto';
import {
  closedAncestor,
  startEmbeddedPostgres,
  startRedisServer,
  type RunningServer,
} from '@xt/embedded';

export const DATABASE_NAME = 'extraction';

/** Where a running `npm start` records its servers, so `npm run keys` can reach them. */
export function stackFile(dataDir: string): string {
  return path.join(dataDir, 'stack.json');
}

export interface StackInfo {
  pid: number;
  databaseUrl: string;
  redisUrl: string;
  apiUrl?: string;
}

export async function readRunningStack(dataDir: string): Promise<StackInfo | null> {
  try {
    const info = JSON.parse(await readFile(stackFile(dataDir), 'utf8')) as StackInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return null;
  }
}

/**
 * Owner-only: the file holds the database and Redis URLs (with the embedded superuser's
 * password). `mode` applies only when the file is created, so an older file is narrowed too.
 */
export async function writeStack(dataDir: string, info: StackInfo): Promise<void> {
  const file = stackFile(dataDir);
  await writeFile(file, JSON.stringify(info, null, 2), { mode: 0o600 });
  await chmod(file, 0o600);
}

async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Where the embedded cluster lives: DATA_DIR/postgres. As root the server runs as the
 * `postgres` user, which cannot enter a checkout under a private directory such as /root; the
 * cluster then goes to /var/lib/extraction-service/<hash of DATA_DIR>, so `npm start` still
 * works from any clone (and says where the data went).
 */
export async function postgresDataDir(
  dataDir: string,
  log: (line: string) => void,
): Promise<string> {
  const preferred = path.join(path.resolve(dataDir), 'postgres');
  if (process.getuid?.() !== 0) return preferred;
  const closed = await closedAncestor(preferred);
  if (!closed) return preferred;
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12);
  const fallback = path.join('/var/lib/extraction-service', hash, 'postgres');
  log(
    `the postgres user cannot enter ${closed.path}; the embedded PostgreSQL keeps its data in ${fallback}`,
  );
  return fallback;
}

/** The project-local PostgreSQL, with the service's database in it. */
export async function startLocalPostgres(
  dataDir: string,
  log: (line: string) => void,
): Promise<{ server: RunningServer; databaseUrl: string }> {
  const server = await startEmbeddedPostgres({ dataDir: await postgresDataDir(dataDir, log) });
  const databaseUrl = await ensureDatabase(server.url, DATABASE_NAME);
  return { server, databaseUrl };
}

export async function startLocalRedis(dataDir: string): Promise<RunningServer> {
  return startRedisServer({ dataDir: path.join(dataDir, 'redis') });
}
