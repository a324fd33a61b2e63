import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkUsers } from './users.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'xt-users-check-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const write = (dockerfile: string, worker: string[]) =>
  Promise.all([
    writeFile(path.join(root, 'Dockerfile'), dockerfile),
    writeFile(
      path.join(root, 'docker-compose.yml'),
      ['services:', '  worker:', ...worker].join('\n'),
    ),
  ]);

describe('the worker’s user', () => {
  it('is refused as root, as compose ran it before the helper launcher', async () => {
    await write('FROM node:24\nUSER node\n', [
      '    user: root',
      "    command: ['node', 'apps/worker/dist/main.js']",
    ]);
    expect(checkUsers(root)).toEqual([
      'docker-compose.yml service worker: runs the worker as root; run it as an unprivileged user, or start it through apps/worker/dist/helper-launcher.js (which runs it as --worker)',
    ]);
  });

  it('is refused as root through a launcher told to keep it root, and by an image without USER', async () => {
    await write('FROM node:24 AS build\nUSER node\nFROM node:24\n', [
      "    user: '0:0'",
      "    command: ['node', 'apps/worker/dist/helper-launcher.js', '--worker=root', '--', 'node', 'apps/worker/dist/main.js']",
    ]);
    expect(checkUsers(root)).toEqual([
      "Dockerfile: the image's default USER is root (no USER); it must be an unprivileged user",
      "docker-compose.yml service worker: the helper launcher's --worker is root; it must not be root",
    ]);
  });

  it('passes a worker started as an unprivileged user, or by the launcher as one', async () => {
    await write('FROM node:24\nUSER node\n', ["    command: ['node', 'apps/worker/dist/main.js']"]);
    expect(checkUsers(root)).toEqual([]);
    await write('FROM node:24\nUSER node\n', [
      '    user: root',
      "    command: ['node', 'apps/worker/dist/helper-launcher.js', '--worker=node', '--', 'node', 'apps/worker/dist/main.js']",
    ]);
    expect(checkUsers(root)).toEqual([]);
  });

  it('passes this repository', () => {
    expect(checkUsers(repo)).toEqual([]);
  });
});
