import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseEnv } from './env.ts';

const schema = z.object({
  DATABASE_URL: z.url(),
  METRICS_TOKEN: z.string().min(1).optional(),
  PORT: z.coerce.number().int().default(3000),
});

describe('parseEnv', () => {
  it('treats empty values as unset, as docker-compose writes ${NAME:-}', () => {
    expect(
      parseEnv(schema, { DATABASE_URL: 'postgres://h/db', METRICS_TOKEN: '', PORT: '' }),
    ).toEqual({
      DATABASE_URL: 'postgres://h/db',
      PORT: 3000,
    });
  });

  it('names every bad variable in one message', () => {
    expect(() => parseEnv(schema, { DATABASE_URL: 'nope', PORT: 'x' })).toThrow(
      /Invalid configuration:\n {2}DATABASE_URL: .*\n {2}PORT: /,
    );
  });
});
