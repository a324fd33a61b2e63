/**
 * Ready to publish: each package's tarball (or sdist) holds what its README and manifest
 * promise, and nothing of the repository's insides.
 */
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@xt/testkit';
import {
  declaredEntryPoints,
  npmPackDryRun,
  pythonWithBuild,
  readJson,
  sdistContents,
} from './contents.ts';

const run = promisify(execFile);

async function changelogHas(file: string, version: string): Promise<boolean> {
  return (await readFile(file, 'utf8')).includes(`## ${version}`);
}

describe.each([
  { dir: 'packages/sdk', bins: ['xt'] },
  { dir: 'packages/mcp', bins: ['xt-mcp'] },
])('npm package $dir', ({ dir, bins }) => {
  it('packs its built entry points, binaries, README and CHANGELOG, and no sources or tests', async () => {
    const root = path.join(REPO_ROOT, dir);
    const manifest = await readJson(path.join(root, 'package.json'));
    const packed = await npmPackDryRun(root);

    expect(packed.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(manifest.bin as object)).toEqual(bins);
    const entries = declaredEntryPoints(manifest);
    expect(entries.length).toBeGreaterThan(2);
    for (const entry of entries) expect(packed.files, entry).toContain(entry);
    expect(packed.files).toEqual(
      expect.arrayContaining(['README.md', 'CHANGELOG.md', 'package.json']),
    );
    expect(await changelogHas(path.join(root, 'CHANGELOG.md'), packed.version)).toBe(true);
    expect(
      packed.files.filter((f) => /(^src\/|\.test\.|\.ts$)/.test(f) && !f.endsWith('.d.ts')),
    ).toEqual([]);
    // Every module the build emitted travels with its declarations (bin/ holds the small
    // committed start-up files, which are no module of the package's API).
    for (const js of packed.files.filter((f) => f.startsWith('dist/') && f.endsWith('.js'))) {
      expect(packed.files, js).toContain(js.replace(/\.js$/, '.d.ts'));
    }
    // The README's install line names the tarball npm pack makes.
    if (dir === 'packages/sdk') {
      const readme = await readFile(path.join(root, 'README.md'), 'utf8');
      expect(readme).toContain(packed.filename);
    }
  }, 180_000);
});

describe('Python package clients/python', () => {
  it('leaves nothing git would list after `pip install ./clients/python` or a build', async () => {
    // setuptools writes build/ and src/xt_sdk.egg-info/ into the project; python -m build, dist/.
    const left = [
      'clients/python/build/lib/xt_sdk/client.py',
      'clients/python/src/xt_sdk.egg-info/PKG-INFO',
      'clients/python/dist/xt_sdk-0.1.0.tar.gz',
    ];
    const { stdout } = await run('git', ['check-ignore', ...left], { cwd: REPO_ROOT });
    expect(stdout.trim().split('\n')).toEqual(left);
  });

  it('builds an sdist with every module, py.typed, README and CHANGELOG, for Python 3.10+', async () => {
    const python = await pythonWithBuild();
    // The test set-up installs python3-build and python3-setuptools (the system-package list).
    expect(python, 'no python3 with the build and setuptools modules').toBeDefined();
    const project = path.join(REPO_ROOT, 'clients', 'python');
    const sdist = await sdistContents(python!, project);

    const pyproject = await readFile(path.join(project, 'pyproject.toml'), 'utf8');
    const version = /^version = "([^"]+)"/m.exec(pyproject)![1]!;
    const escaped = version.replaceAll('.', '\\.');
    // Older setuptools keep the dash of the project name; newer ones normalise it to `_`.
    expect(sdist.filename).toMatch(new RegExp(`^xt[-_]sdk-${escaped}\\.tar\\.gz$`));
    const modules = (await readdir(path.join(project, 'src', 'xt_sdk'))).filter(
      (f) => f.endsWith('.py') || f === 'py.typed',
    );
    expect(modules).toContain('py.typed');
    for (const module of modules) expect(sdist.files).toContain(`src/xt_sdk/${module}`);
    expect(sdist.files).toEqual(
      expect.arrayContaining(['pyproject.toml', 'README.md', 'CHANGELOG.md', 'PKG-INFO']),
    );
    expect(sdist.files.filter((f) => f.startsWith('tests/') || f.includes('__pycache__'))).toEqual(
      [],
    );
    expect(sdist.pkgInfo).toMatch(new RegExp(`^Version: ${escaped}$`, 'm'));
    expect(sdist.pkgInfo).toMatch(/^Requires-Python: >=3\.10$/m);
    expect(sdist.pkgInfo).not.toMatch(/^Requires-Dist:/m);
    expect(await changelogHas(path.join(project, 'CHANGELOG.md'), version)).toBe(true);
  }, 120_000);
});
