import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stackFile, writeStack } from './local-servers.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('stack.json', () => {
  it('is readable by its owner only, also when an older file was readable by others', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'xt-stack-'));
    await writeFile(stackFile(dir), '{}', { mode: 0o644 });
    await writeStack(dir, {
      pid: process.pid,
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:5432/extraction',
      redisUrl: 'redis://127.0.0.1:6379',
    });
    expect((await stat(stackFile(dir))).mode & 0o777).toBe(0o600);
  });
});
