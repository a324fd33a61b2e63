import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './postgres.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'xt-pg-'));
  // As root the server runs as "postgres", which must be able to enter the directory.
  await chmod(dataDir, 0o755);
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('startEmbeddedPostgres', () => {
  it('initialises a UTF-8 cluster once, keeps data and port across restarts', async () => {
    const first = await startEmbeddedPostgres({ dataDir, password: 's3cret' });
    expect(first.url).toMatch(/^postgres:\/\/postgres:s3cret@127\.0\.0\.1:\d+\/postgres$/);
    await query(first.url, 'CREATE TABLE kept (word text); INSERT INTO kept VALUES ($$École$$)');
    const [settings] = await query<{ encoding: string; lowered: string }>(
      first.url,
      "SELECT current_setting('server_encoding') AS encoding, lower('ÉCOLE') AS lowered",
    );
    expect(settings).toEqual({ encoding: 'UTF8', lowered: 'école' });
    await first.stop();
    await expect(query(first.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);

    const second = await startEmbeddedPostgres({ dataDir, password: 's3cret' });
    try {
      expect(second.url).toBe(first.url);
      expect(await query(second.url, "SELECT word FROM kept WHERE word ILIKE '%éc%'")).toEqual([
        { word: 'École' },
      ]);
    } finally {
      await second.stop();
    }
  });

  it.runIf(process.getuid?.() === 0)(
    'as root, explains a data directory the postgres user cannot reach',
    async () => {
      const hidden = await mkdtemp(join(tmpdir(), 'xt-pg-hidden-'));
      try {
        await expect(startEmbeddedPostgres({ dataDir: join(hidden, 'db') })).rejects.toThrow(
          `cannot enter ${hidden} (mode 700)`,
        );
      } finally {
        await rm(hidden, { recursive: true, force: true });
      }
    },
  );

  it('rejects a wrong password', async () => {
    const server = await startEmbeddedPostgres({ dataDir, password: 's3cret' });
    try {
      const wrong = server.url.replace('s3cret', 'nope');
      await expect(query(wrong, 'SELECT 1')).rejects.toThrow(/password authentication failed/);
    } finally {
      await server.stop();
    }
  });

  it('refuses to start a second server on a data directory in use', async () => {
    const server = await startEmbeddedPostgres({ dataDir, password: 's3cret' });
    try {
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/already running/);
      expect(await query(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await server.stop();
    }
  });

  it('starts despite a lock file left by a crash whose pid now belongs to another process', async () => {
    // PostgreSQL itself would refuse: the pid in the lock file is alive (it is this test runner).
    await writeFile(
      join(dataDir, 'cluster', 'postmaster.pid'),
      `${process.pid}\n${join(dataDir, 'cluster')}\n0\n5432\n\n127.0.0.1\n0 0\nready\n`,
    );
    const server = await startEmbeddedPostgres({ dataDir, password: 's3cret' });
    try {
      expect(await query(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await server.stop();
    }
  });
});
