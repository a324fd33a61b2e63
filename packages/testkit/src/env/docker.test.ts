import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dockerEndpoints, dockerReachable } from './docker.ts';

let dir: string;
let server: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xt-docker-'));
});
afterEach(async () => {
  if (server) await new Promise((done) => server?.close(done));
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function fakeEngine(status: number): Promise<string> {
  const socketPath = join(dir, 'docker.sock');
  server = createServer((req, res) => {
    res.statusCode = req.url === '/_ping' ? status : 404;
    res.end('OK');
  });
  return new Promise((resolve) => server?.listen(socketPath, () => resolve(socketPath)));
}

describe('dockerReachable', () => {
  it('is true when an engine answers /_ping on the DOCKER_HOST socket', async () => {
    const socketPath = await fakeEngine(200);
    expect(await dockerReachable({ DOCKER_HOST: `unix://${socketPath}` })).toBe(true);
  });

  it('is false when the socket answers with an error', async () => {
    const socketPath = await fakeEngine(500);
    expect(await dockerReachable({ DOCKER_HOST: `unix://${socketPath}` })).toBe(false);
  });

  it('is false when nothing listens', async () => {
    expect(await dockerReachable({ DOCKER_HOST: `unix://${join(dir, 'absent.sock')}` })).toBe(
      false,
    );
    expect(await dockerReachable({ DOCKER_HOST: 'tcp://127.0.0.1:1' })).toBe(false);
  });

  it('looks in the usual places when DOCKER_HOST is unset', () => {
    expect(dockerEndpoints({ XDG_RUNTIME_DIR: '/run/user/1000' })).toContainEqual({
      socketPath: '/run/user/1000/docker.sock',
    });
    expect(dockerEndpoints({})).toContainEqual({ socketPath: '/var/run/docker.sock' });
    expect(dockerEndpoints({ DOCKER_HOST: 'tcp://docker.example:2376' })).toEqual([
      { host: 'docker.example', port: 2376 },
    ]);
  });
});
