import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packagesFor } from './catalogue.ts';
import { ensureSystemPackages, SystemPackagesMissing } from './ensure.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xt-syspkg-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pkg = (name: string, probe: string) => ({
  name,
  probe,
  why: 'test',
  purposes: ['test'] as const,
});

describe('ensureSystemPackages', () => {
  it('finds a command on PATH and a file by its path, and installs nothing', async () => {
    const tool = join(dir, 'xt-tool');
    await writeFile(tool, '#!/bin/sh\n');
    await chmod(tool, 0o755);
    const lines: string[] = [];
    const installed = await ensureSystemPackages({
      purpose: 'test',
      env: { PATH: dir },
      log: (line) => lines.push(line),
      packages: [pkg('xt-tool', 'xt-tool'), pkg('xt-file', tool)],
    });
    expect(installed).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('a command that is on PATH but not executable counts as missing', async () => {
    await writeFile(join(dir, 'xt-tool'), 'not a program');
    // No apt-get on this PATH, so nothing is installed whoever runs the test.
    await expect(
      ensureSystemPackages({
        purpose: 'test',
        env: { PATH: dir },
        log: () => undefined,
        packages: [pkg('xt-tool', 'xt-tool')],
      }),
    ).rejects.toThrow(SystemPackagesMissing);
  });

  it('with no apt-get, stops and names what is missing and the Debian command', async () => {
    const error = await ensureSystemPackages({
      purpose: 'test',
      env: { PATH: dir },
      log: () => undefined,
      packages: [pkg('redis-server', 'redis-server'), pkg('chromium', join(dir, 'chromium'))],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SystemPackagesMissing);
    expect((error as SystemPackagesMissing).missing).toEqual(['redis-server', 'chromium']);
    expect((error as Error).message).toContain('sudo apt-get install -y redis-server chromium');
  });
});

describe('packagesFor', () => {
  it('leaves out redis-server when REDIS_URL names a server, chromium with CHROMIUM_PATH', () => {
    const names = (env: Parameters<typeof packagesFor>[1]) =>
      packagesFor('start', env).map((p) => p.name);
    const always = [
      'fonts-dejavu-core',
      'fonts-noto-cjk',
      'tesseract-ocr',
      'tesseract-ocr-eng',
      'libreoffice-writer-nogui',
      'libreoffice-impress-nogui',
      'fonts-liberation2',
      'fonts-crosextra-carlito',
      'fonts-crosextra-caladea',
      'libreoffice-calc-nogui',
    ];
    expect(names({})).toEqual(['redis-server', 'chromium', ...always]);
    expect(names({ REDIS_URL: 'redis://r:6379', CHROMIUM_PATH: '/opt/chrome' })).toEqual(always);
  });

  it('keeps redis-server for the tests whatever REDIS_URL says: they start cluster nodes', () => {
    for (const purpose of ['test', 'ci'] as const)
      expect(packagesFor(purpose, { REDIS_URL: 'redis://r:6379' }).map((p) => p.name)).toContain(
        'redis-server',
      );
  });

  it('off Linux, only looks for commands on PATH', () => {
    expect(packagesFor('start', {}, 'darwin').map((p) => p.name)).toEqual([
      'redis-server',
      'tesseract-ocr',
    ]);
  });

  it('CI also needs PostgreSQL, poppler, haproxy and docker-compose', () => {
    expect(packagesFor('ci', {}).map((p) => p.name)).toEqual(
      expect.arrayContaining(['postgresql', 'poppler-utils', 'haproxy', 'docker-compose']),
    );
  });
});
