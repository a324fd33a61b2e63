import { createDb, runMigrations, type DbHandle } from '@xt/db';
import type { RunningServer } from '@xt/embedded';
import { z } from 'zod';
import { loadLauncherConfig } from '../config.ts';
import { readRunningStack, startLocalPostgres } from '../local-servers.ts';

/**
 * Runs one CLI command against DATABASE_URL or, without it, the embedded database `npm start`
 * uses (the running one when `npm start` is up, else started just for the command). Exits with
 * the command's code; an error is printed as one line and exits 1.
 */
export function runCliCommand(
  applicationName: string,
  command: (db: DbHandle['db']) => Promise<number>,
): void {
  let stopAfter: RunningServer | undefined;
  const env = z.object({ DATABASE_URL: z.url() }).safeParse(process.env);
  const main = async () => {
    let databaseUrl: string;
    if (env.success) databaseUrl = env.data.DATABASE_URL;
    else {
      const { DATA_DIR } = loadLauncherConfig();
      const running = await readRunningStack(DATA_DIR);
      if (running) databaseUrl = running.databaseUrl;
      else {
        const local = await startLocalPostgres(DATA_DIR, (line) => console.error(line));
        stopAfter = local.server;
        databaseUrl = local.databaseUrl;
      }
    }
    await runMigrations(databaseUrl);
    const handle = createDb(databaseUrl, { max: 1, applicationName });
    try {
      return await command(handle.db);
    } finally {
      await handle.close();
    }
  };
  main().then(
    async (code) => {
      await stopAfter?.stop();
      process.exit(code);
    },
    (err: unknown) => {
      console.error(`error: ${(err as Error).message}`);
      void (stopAfter?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
    },
  );
}
