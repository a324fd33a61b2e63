import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, startRedisServer, type RunningServer } from '@xt/embedded';

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

export async function writeStack(dataDir: string, info: StackInfo): Promise<void> {
  await writeFile(stackFile(dataDir), JSON.stringify(info, null, 2));
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

/** The project-local PostgreSQL under DATA_DIR/postgres, with the service's database in it. */
export async function startLocalPostgres(
  dataDir: string,
  log: (line: string) => void,
): Promise<{ server: RunningServer; databaseUrl: string }> {
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'postgres'),
    onLog: log,
  });
  const databaseUrl = await ensureDatabase(server.url, DATABASE_NAME);
  return { server, databaseUrl };
}

export async function startLocalRedis(dataDir: string): Promise<RunningServer> {
  return startRedisServer({ dataDir: path.join(dataDir, 'redis') });
}
