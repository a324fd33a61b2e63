import type { z } from 'zod';

/**
 * Validates an app's environment against its schema, once, at start-up. Every bad variable is
 * named in one message, so a misconfigured deploy fails loudly and early. Empty values count
 * as unset.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  // `NAME=` means unset, as docker-compose's `${NAME:-}` and .env files write it.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The log format when LOG_FORMAT is not set: coloured lines for a person at a terminal during
 * development, JSON for everything else (a collector, a file, production).
 */
export function resolveLogFormat(
  setting: LogFormat | undefined,
  nodeEnv: string | undefined,
  isTTY = process.stdout.isTTY === true,
): LogFormat {
  if (setting) return setting;
  return isTTY && nodeEnv !== 'production' ? 'pretty' : 'json';
}
