import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFile } from './files.ts';

let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'xt-mcp-files-')));
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), text);
  };
  write('invoice.txt', 'Total 12.00');
  write('.env', 'OPENAI_API_KEY=sk-secret');
  write('.data/dev-api-key.txt', 'xt_dev_secret');
  write('inbox/.git/config', '[core]');
  symlinkSync(path.join(root, '.env'), path.join(root, 'notes.txt'));
  symlinkSync(path.join(root, '.data'), path.join(root, 'data'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const under = (filesRoot: string, requested: string) =>
  localFile(requested, { cwd: root, filesRoot });

describe('files under the root', () => {
  it('reads a plain file', async () => {
    expect(await under('.', 'invoice.txt')).toEqual({
      file: path.join(root, 'invoice.txt'),
      real: path.join(root, 'invoice.txt'),
    });
  });

  it.each([
    ['.env', '.env'],
    ['.data/dev-api-key.txt', '.data'],
    ['./inbox/.git/config', 'inbox/.git'],
    ['notes.txt', '.env'],
    ['data/dev-api-key.txt', '.data'],
  ])('leaves out %s, hidden in %s', async (requested, hidden) => {
    await expect(under('.', requested)).rejects.toThrow(
      `path: ${requested} is hidden (${hidden} starts with a dot)`,
    );
  });

  it('reads a hidden folder the operator named as the root', async () => {
    expect((await under('.data', 'dev-api-key.txt')).real).toBe(
      path.join(root, '.data', 'dev-api-key.txt'),
    );
  });

  it('reads anything, hidden or not, without a root (over stdio, the user asks)', async () => {
    expect((await localFile('.env', { cwd: root })).real).toBe(path.join(root, '.env'));
  });
});
