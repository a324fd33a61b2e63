import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, name = 'api'): Logger {
  return pino({
    name,
    level,
    // Credentials must never reach the logs, whatever a handler decides to log.
    redact: ['req.headers.authorization', 'headers.authorization', '*.apiKey', '*.password'],
  });
}
