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
  // A development service with a printed key stays on this machine unless HOST says otherwise
  // (the API alone defaults to all interfaces, as containers need).
  HOST: z.string().min(1).default('127.0.0.1'),
  WORKER_PROCESSES: z.coerce.number().int().min(0).max(64).default(1),
  // The workers' /healthz, /readyz and /metrics: WORKER_METRICS_PORT + 0, 1, … when set; unset,
  // a free port per worker (remembered under DATA_DIR), so two instances never fight over one.
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Read here only to know whether Debian's chromium is needed; the worker validates it.
  CHROMIUM_PATH: z.string().min(1).optional(),
  PATH: z.string().optional(),
});

export type LauncherConfig = z.infer<typeof configSchema>;

export function loadLauncherConfig(env: NodeJS.ProcessEnv = process.env): LauncherConfig {
  return parseEnv(configSchema, env);
}
