import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileInside } from './file-inside.ts';

let dir: string;
let root: string;

beforeAll(async () => {
  // Through a link itself, as /tmp is on some systems: the root's real path is what counts.
  const real = await realpath(await mkdtemp(path.join(os.tmpdir(), 'xt-inside-test-')));
  dir = path.join(real, 'via');
  await symlink(real, dir);
  root = path.join(dir, 'root');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  await writeFile(path.join(root, 'sub', 'a.txt'), 'a');
  await writeFile(path.join(dir, 'outside-secret.txt'), 'TOP SECRET');
  await symlink('sub/a.txt', path.join(root, 'inner-link.txt'));
  await symlink('../outside-secret.txt', path.join(root, 'outer-link.txt'));
  await symlink(dir, path.join(root, 'up'));
});

afterAll(async () => {
  if (dir) await rm(await realpath(dir), { recursive: true, force: true });
});

describe('fileInside', () => {
  it('gives the real path of files inside the root, links that stay inside included', async () => {
    const real = path.join(await realpath(root), 'sub', 'a.txt');
    expect(await fileInside(root, 'sub/a.txt')).toEqual({ ok: true, real });
    expect(await fileInside(root, './sub/../sub/a.txt')).toEqual({ ok: true, real });
    expect(await fileInside(root, 'inner-link.txt')).toEqual({ ok: true, real });
    expect(await fileInside(root, real)).toEqual({ ok: true, real });
  });

  it('calls anything that leaves the root outside, whether or not it exists', async () => {
    for (const requested of [
      '../outside-secret.txt',
      '../no-such-file.txt',
      path.join(dir, 'outside-secret.txt'),
      '/etc/passwd',
      '/no/such/file',
      'outer-link.txt',
      'up/outside-secret.txt',
      'sub/../../outside-secret.txt',
    ]) {
      expect(await fileInside(root, requested), requested).toEqual({
        ok: false,
        reason: 'outside',
      });
    }
  });

  it('tells a missing file and a folder from a file', async () => {
    expect(await fileInside(root, 'nope.pdf')).toEqual({ ok: false, reason: 'missing' });
    expect(await fileInside(root, 'sub')).toEqual({ ok: false, reason: 'not-a-file' });
    expect(await fileInside(root, '.')).toEqual({ ok: false, reason: 'not-a-file' });
  });
});
