import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs; credentials never reach them, whatever a caller decides to log. */
export function createLogger(level: string, name: string): Logger {
  return pino({
    name,
    level,
    redact: [
      'req.headers.authorization',
      'headers.authorization',
      '*.authorization',
      '*.apiKey',
      '*.password',
    ],
  });
}
