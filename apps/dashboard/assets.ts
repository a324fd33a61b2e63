/**
 * Where the built dashboard lives, and building it when it is missing or older than its
 * sources: `npm start` and the tests call `ensureDashboardAssets()`, so a fresh clone serves the
 * dashboard without a separate build step. (CI builds it with `npm run build`, through turbo.)
 */
import { execFile } from 'node:child_process';
import { stat, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Resolved through the package, so it is right from sources and from a bundled API alike. */
export function dashboardRoot(): string {
  return path.dirname(createRequire(import.meta.url).resolve('@xt/dashboard/package.json'));
}

export function dashboardAssetsDir(): string {
  return path.join(dashboardRoot(), 'dist');
}

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const t = entry.isDirectory() ? await newestSource(full) : (await stat(full)).mtimeMs;
    newest = Math.max(newest, t);
  }
  return newest;
}

async function mtime(file: string): Promise<number | null> {
  return stat(file).then(
    (s) => s.mtimeMs,
    () => null,
  );
}

/** Builds the assets with Vite when dist/ is missing or older than src/. Returns whether it built. */
export async function ensureDashboardAssets(
  log: (line: string) => void = () => {},
): Promise<boolean> {
  const root = dashboardRoot();
  const built = await mtime(path.join(root, 'dist', 'index.html'));
  if (built !== null) {
    // A package installed without sources (a production image) only has dist/: use it.
    const hasSources = (await mtime(path.join(root, 'src'))) !== null;
    if (!hasSources) return false;
    const sources = Math.max(
      await newestSource(path.join(root, 'src')),
      (await mtime(path.join(root, 'index.html'))) ?? 0,
      (await mtime(path.join(root, 'vite.config.ts'))) ?? 0,
    );
    if (sources <= built) return false;
  }
  log('building the dashboard (apps/dashboard, Vite)');
  const viteRoot = path.dirname(
    createRequire(path.join(root, 'package.json')).resolve('vite/package.json'),
  );
  const vite = path.join(viteRoot, 'bin', 'vite.js');
  await run(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root });
  return true;
}
