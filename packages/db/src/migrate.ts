import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/** The generated SQL lives at the repository root (`drizzle/`), next to drizzle.config.ts. */
export const DEFAULT_MIGRATIONS_FOLDER = fileURLToPath(
  new URL('../../../drizzle', import.meta.url),
);

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
