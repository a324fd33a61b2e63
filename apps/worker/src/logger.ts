import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, name: string): Logger {
  return pino({ name, level, redact: ['*.apiKey', '*.authorization', 'headers.authorization'] });
}
