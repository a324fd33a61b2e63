import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { errorSummary, scrubText } from './scrub.ts';

/** A PostgreSQL error as node-postgres builds it, wrapped as drizzle wraps it. */
function driverError(): Error {
  const pgError = Object.assign(
    new Error('invalid input syntax for type uuid: "row-secret" in "extractions_pkey"'),
    {
      name: 'error',
      code: '22P02',
      severity: 'ERROR',
      constraint: 'extractions_pkey',
      detail: 'Failing row contains (row-secret).',
    },
  );
  return Object.assign(
    new Error('Failed query: select * from t where id = $1\nparams: param-secret'),
    {
      name: 'DrizzleQueryError',
      cause: pgError,
    },
  );
}

describe('scrubbing', () => {
  it('keeps the driver code, names and reason, never parameters or quoted values', () => {
    expect(errorSummary(driverError())).toEqual({
      name: 'error',
      code: '22P02',
      constraint: 'extractions_pkey',
      message:
        'database query failed: invalid input syntax for type uuid: "[redacted]" in "extractions_pkey"',
    });
  });

  it('reduces URLs to their origin and removes key-shaped strings', () => {
    expect(
      scrubText('fetch https://u:pw@example.com/a?t=1 failed with Bearer abc and sk_live_XYZ123'),
    ).toBe('fetch https://example.com/… failed with Bearer [redacted] and sk_live_[redacted]');
  });

  it('applies to every logger: errors, sensitive fields and messages', () => {
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const log = createLogger('info', 'test', { destination: sink });
    log.error({ err: driverError() }, 'query failed');
    log.error(driverError());
    log.info({ source: 'src-secret', nested: { password: 'pw-secret', url: 'https://h/p?q=s' } });
    for (const leaked of ['row-secret', 'param-secret', 'src-secret', 'pw-secret', 'q=s'])
      expect(out).not.toContain(leaked);
    expect(out).toContain('"code":"22P02"');
    expect(out).toContain('"url":"https://h/…"');
  });
});
