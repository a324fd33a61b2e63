import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pingRedis } from './ping-redis.ts';
import { isAlive } from './processes.ts';
import { REDIS_MISSING_MESSAGE } from './redis-binary.ts';
import { startRedisServer } from './redis.ts';
import { redisConversation } from '../test/redis-conversation.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'xt-redis-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function refusesConnections(port: number): Promise<boolean> {
  for (let i = 0; i < 200; i += 1) {
    try {
      await pingRedis(port, 500);
    } catch {
      return true;
    }
    await sleep(50);
  }
  return false;
}

describe('startRedisServer', () => {
  it('serves on loopback with AOF and noeviction, keeps data and port across restarts', async () => {
    const first = await startRedisServer({ dataDir });
    const { hostname, port } = new URL(first.url);
    expect(hostname).toBe('127.0.0.1');
    const replies = await redisConversation(first.url, [
      'SET greeting hello',
      'CONFIG GET maxmemory-policy',
      'CONFIG GET appendonly',
    ]);
    expect(replies).toContain('+OK');
    expect(replies).toContain('noeviction');
    expect(replies).toMatch(/appendonly\r\n\$3\r\nyes/);
    await first.stop();
    expect(await refusesConnections(Number(port))).toBe(true);

    const second = await startRedisServer({ dataDir });
    try {
      expect(second.url).toBe(first.url);
      expect(await redisConversation(second.url, ['GET greeting'])).toContain('$5\r\nhello');
    } finally {
      await second.stop();
    }
  });

  it('says what to install when redis-server is missing', async () => {
    await expect(
      startRedisServer({ dataDir, redisServerPath: join(dataDir, 'no-such-redis-server') }),
    ).rejects.toThrow(REDIS_MISSING_MESSAGE);
  });

  it('starts despite a pid file naming a process that is not redis', async () => {
    // Our own pid: alive, but not a redis-server running in dataDir.
    await writeFile(join(dataDir, 'redis.pid'), `${process.pid}\n`);
    const server = await startRedisServer({ dataDir });
    await server.stop();
    expect(isAlive(process.pid)).toBe(true);
  });

  it('refuses a data directory whose redis is still owned by a running starter', async () => {
    const server = await startRedisServer({ dataDir });
    try {
      await expect(startRedisServer({ dataDir })).rejects.toThrow(/already running/);
      expect(await redisConversation(server.url, ['PING'])).toContain('+PONG');
    } finally {
      await server.stop();
    }
  });

  it('stops redis when the process that started it is killed outright', async () => {
    const script = join(dataDir, 'starter.mts');
    const module = pathToFileURL(join(import.meta.dirname, 'redis.ts')).href;
    await writeFile(
      script,
      `import { startRedisServer } from ${JSON.stringify(module)};\n` +
        `const server = await startRedisServer({ dataDir: ${JSON.stringify(join(dataDir, 'data'))} });\n` +
        `console.log(server.url);\n` +
        `setInterval(() => {}, 1000);\n`,
    );
    const starter = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve, reject) => {
      starter.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8').trim()));
      starter.once('exit', (code) => reject(new Error(`starter exited with ${code}`)));
    });
    const redisPid = Number((await readFile(join(dataDir, 'data', 'redis.pid'), 'utf8')).trim());
    expect(await redisConversation(url, ['PING'])).toContain('+PONG');

    starter.kill('SIGKILL');
    expect(await refusesConnections(Number(new URL(url).port))).toBe(true);
    for (let i = 0; i < 100 && isAlive(redisPid); i += 1) await sleep(50);
    expect(isAlive(redisPid)).toBe(false);
  });
});
