/**
 * The pool tells a busy process from a database that does not answer: a caller keeps waiting
 * while PostgreSQL answers the pool, and gives up once it has been silent for the timeout.
 */
import net from 'node:net';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PatientPool } from './patient-pool.ts';

// Provided by the test servers' global set-up (packages/testkit); not imported from there,
// since the test kit itself depends on this package.
const serverUrl = (inject as (key: string) => string)('testDatabaseAdminUrl');

const TIMEOUT_MS = 800;
const pools: PatientPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.end().catch(() => undefined);
});

function pool(connectionString: string, busyWaitMillis = 600_000): PatientPool {
  const p = new PatientPool({
    connectionString,
    max: 1,
    connectionTimeoutMillis: TIMEOUT_MS,
    silenceMillis: TIMEOUT_MS,
    busyWaitMillis,
  });
  p.on('error', () => undefined);
  pools.push(p);
  return p;
}

describe('PatientPool', () => {
  it('serves callers queued past the timeout while the database keeps answering', async () => {
    const p = pool(serverUrl);
    // Sixteen callers take the one connection in turn, each for a 0.1 s query: the last ones
    // wait twice the timeout, while the connection is given back every ~0.1 s.
    const turns = Array.from({ length: 16 }, async (_, i) => {
      const client = await p.connect();
      try {
        await client.query('select pg_sleep(0.1)');
        return i;
      } finally {
        client.release();
      }
    });
    expect(await Promise.all(turns)).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });

  it('fails a waiter once the database has been silent for the timeout', async () => {
    const p = pool(serverUrl);
    const held = await p.connect();
    // The one connection's query outlasts the timeout several times: the database says nothing.
    let slowDone = false;
    const slow = held.query('select pg_sleep(3)').then(() => (slowDone = true));
    await expect(p.connect()).rejects.toThrow(/timeout exceeded when trying to connect/);
    expect(slowDone).toBe(false);
    await slow;
    held.release();
  }, 30_000);

  it('fails at the timeout when the connection itself does not come', async () => {
    // Accepts the TCP connection and never says a word, as a hung server would.
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const p = pool(`postgres://nobody@127.0.0.1:${port}/none`);
    await expect(p.connect()).rejects.toThrow(/timeout exceeded when trying to connect/);
    // The pool's own backstop would hold its slot for minutes: hang up on it.
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }, 30_000);
});
