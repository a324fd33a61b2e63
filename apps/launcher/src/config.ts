import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { z } from 'zod';
import { parseEnv, redisUrl } from '@xt/runtime';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The launcher's own settings. Everything else in the environment is passed through to the API
 * and worker processes, which validate their own configuration.
 */
export const configSchema = z.object({
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  REDIS_URL: redisUrl().optional(),
  DATA_DIR: z.string().default(path.join(REPO_ROOT, '.data')),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  WORKER_PROCESSES: z.coerce.number().int().min(0).max(64).default(1),
  // Read here only to know whether Debian's chromium is needed; the worker validates it.
  CHROMIUM_PATH: z.string().min(1).optional(),
  PATH: z.string().optional(),
});

export type LauncherConfig = z.infer<typeof configSchema>;

export function loadLauncherConfig(env: NodeJS.ProcessEnv = process.env): LauncherConfig {
  return parseEnv(configSchema, env);
}
