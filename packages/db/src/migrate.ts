import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/**
 * The generated SQL lives at the repository root (`drizzle/`). Found by walking up from this
 * module, so the same code works from the sources and from an app bundled into its `dist/`.
 */
function findMigrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error('drizzle/ migrations folder not found above ' + import.meta.url);
    dir = parent;
  }
}

export const DEFAULT_MIGRATIONS_FOLDER = findMigrationsFolder();

/**
 * Applies pending migrations. Several processes may start at once behind a load balancer, so
 * the run is serialised with a Postgres advisory lock; drizzle's own bookkeeping then makes
 * every later run a no-op.
 */
export async function runMigrations(
  url: string,
  migrationsFolder: string = DEFAULT_MIGRATIONS_FOLDER,
): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'migrator' });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(72707369)');
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(72707369)').catch(() => undefined);
    await client.end();
  }
}
