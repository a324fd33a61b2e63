import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Files PostgreSQL keeps in a data directory that we rely on. */
export function clusterPaths(dataDir: string): {
  cluster: string;
  initialising: string;
  versionFile: string;
  pidFile: string;
} {
  const cluster = join(dataDir, 'cluster');
  return {
    cluster,
    // initdb writes here first and the directory is renamed when it succeeded, so an interrupted
    // initdb never leaves a half-made cluster where a complete one is expected.
    initialising: join(dataDir, 'cluster.initialising'),
    versionFile: join(cluster, 'PG_VERSION'),
    pidFile: join(cluster, 'postmaster.pid'),
  };
}

export async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first directory on the way down to `dir` that other users (the `postgres` user, when we
 * are root) cannot enter, or null when the whole path is open to them. Directories that do not
 * exist yet are skipped: they will be created open.
 */
export async function closedAncestor(dir: string): Promise<{ path: string; mode: number } | null> {
  for (let current = dir; ; current = dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) return { path: current, mode: info.mode & 0o777 };
    if (dirname(current) === current) return null;
  }
}

/**
 * As root the server runs as the `postgres` user, which must be able to walk down to the data
 * directory; /root (mode 700) is the usual trap. Checking up front turns an obscure start-up
 * failure into a message that says what to do.
 */
export async function assertReachableByOthers(dir: string): Promise<void> {
  const closed = await closedAncestor(dir);
  if (closed) {
    throw new Error(
      `PostgreSQL runs as the "postgres" user when started as root, and it cannot enter ${closed.path} ` +
        `(mode ${closed.mode.toString(8)}); choose a data directory outside it or run: chmod o+x ${closed.path}`,
    );
  }
}
