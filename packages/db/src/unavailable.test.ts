import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDb } from './client.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

describe('isDatabaseUnavailable', () => {
  it('knows a refused connection from a real pool, wrapped or not', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused.
    const handle = createDb('postgres://postgres@127.0.0.1:1/postgres', { max: 1 });
    const err = await handle.pool.query('select 1').catch((e: unknown) => e);
    await handle.close();
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: err }))).toBe(true);
  });

  it('knows shutdown, start-up and timeout SQLSTATEs and pool timeouts', () => {
    for (const code of ['57P01', '57P03', '08006', '53300', '57014'])
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('leaves ordinary errors alone', () => {
    const unique = Object.assign(new pg.DatabaseError('duplicate key', 0, 'error'), {
      code: '23505',
    });
    expect(isDatabaseUnavailable(unique)).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
