/**
 * What a published package holds, read the way the registry will get it: `npm pack --dry-run`
 * (which runs `prepack`, so the build too) for the npm packages, and an sdist built by
 * `python -m build` for the Python one.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Packed {
  name: string;
  version: string;
  filename: string;
  files: string[];
}

export async function npmPackDryRun(dir: string): Promise<Packed> {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json'], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  });
  // Lifecycle scripts may print before the JSON document.
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    name: string;
    version: string;
    filename: string;
    files: { path: string }[];
  }[];
  return { ...packed!, files: packed!.files.map((f) => f.path) };
}

/** Every file path a package.json points at: exports targets (but the source condition), bin, types. */
export function declaredEntryPoints(manifest: Record<string, unknown>): string[] {
  const targets = new Set<string>();
  const walk = (value: unknown, condition?: string) => {
    if (typeof value === 'string') {
      if (condition !== '@xt/source') targets.add(value);
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(inner, key);
    }
  };
  walk(manifest.exports);
  walk(manifest.bin);
  walk(manifest.types);
  return [...targets].map((t) => t.replace(/^\.\//, ''));
}

/** A Python interpreter that can build offline: the first with `build` and `setuptools`. */
export async function pythonWithBuild(): Promise<string | undefined> {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    try {
      await run(candidate, ['-c', 'import build, setuptools']);
      return candidate;
    } catch {
      // Not this one (absent, or without the modules).
    }
  }
  return undefined;
}

/**
 * Builds the sdist of a copy of `project` (setuptools writes egg-info beside the sources, which
 * must not land in the checkout) with `--no-isolation`, so nothing is downloaded, and lists it.
 */
export async function sdistContents(
  python: string,
  project: string,
): Promise<{ filename: string; files: string[]; pkgInfo: string }> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'xt-sdist-'));
  try {
    const copy = path.join(work, 'project');
    await cp(project, copy, {
      recursive: true,
      filter: (src) => !/(__pycache__|\.egg-info)$/.test(src),
    });
    const out = path.join(work, 'dist');
    await run(python, ['-m', 'build', '--sdist', '--no-isolation', '--outdir', out, copy]);
    const [filename] = await readdir(out);
    const { stdout } = await run('tar', ['-tzf', path.join(out, filename!)]);
    const root = filename!.replace(/\.tar\.gz$/, '/');
    const files = stdout
      .split('\n')
      .filter((f) => f !== '' && !f.endsWith('/'))
      .map((f) => (f.startsWith(root) ? f.slice(root.length) : f));
    const pkgInfo = (await run('tar', ['-xzOf', path.join(out, filename!), `${root}PKG-INFO`]))
      .stdout;
    return { filename: filename!, files, pkgInfo };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
}
