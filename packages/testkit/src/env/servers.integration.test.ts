import { connect } from 'node:net';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { resolveTestServers } from './servers.ts';

// Points Docker discovery at nothing, so these tests take the embedded path on any machine.
const NO_DOCKER = { DOCKER_HOST: `unix://${join(tmpdir(), 'xt-no-docker.sock')}` };

async function selectOne(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 AS one')).rows;
  } finally {
    await client.end();
  }
}

async function ping(url: string): Promise<string> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return await redis.ping();
  } finally {
    redis.disconnect();
  }
}

function connectionError(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('resolveTestServers', () => {
  it('uses the servers the environment names, preferring the TEST_ variables, and stops nothing', async () => {
    const servers = await resolveTestServers({
      env: {
        DATABASE_URL: 'postgres://app@db.example/app',
        TEST_DATABASE_URL: 'postgres://test@db.example/test',
        REDIS_URL: 'redis://cache.example:6379',
      },
    });
    expect(servers.databaseUrl).toBe('postgres://test@db.example/test');
    expect(servers.redisUrl).toBe('redis://cache.example:6379');
    await servers.stop();
  });

  it('without Docker, starts embedded servers that work and are gone after stop', async () => {
    const servers = await resolveTestServers({ env: NO_DOCKER });
    try {
      expect(await selectOne(servers.databaseUrl)).toEqual([{ one: 1 }]);
      expect(await ping(servers.redisUrl)).toBe('PONG');
    } finally {
      await servers.stop();
    }
    expect(await connectionError(servers.databaseUrl)).toBe('ECONNREFUSED');
    expect(await connectionError(servers.redisUrl)).toBe('ECONNREFUSED');
  });

  it('starts only what the environment lacks', async () => {
    const servers = await resolveTestServers({
      env: { ...NO_DOCKER, REDIS_URL: 'redis://cache.example:6379' },
    });
    try {
      expect(servers.redisUrl).toBe('redis://cache.example:6379');
      expect(await selectOne(servers.databaseUrl)).toEqual([{ one: 1 }]);
    } finally {
      await servers.stop();
    }
  });
});
