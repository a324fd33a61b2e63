import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/usr/lib/postgresql';

/** The newest Debian-packaged PostgreSQL's bin directory (initdb and postgres). */
export function postgresBinDir(): string {
  let versions: string[];
  try {
    versions = readdirSync(ROOT).filter((name) => /^\d+$/.test(name));
  } catch {
    versions = [];
  }
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) {
    throw new Error(
      `no PostgreSQL under ${ROOT}: the fault tests start their own server (apt-get install postgresql)`,
    );
  }
  return join(ROOT, newest, 'bin');
}

/**
 * PostgreSQL refuses to run as root; when the tests run as root the server runs as the
 * `postgres` system user (which the Debian package creates).
 */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error('running as root, but there is no "postgres" user to run PostgreSQL as');
  }
  return { uid: Number(uid), gid: Number(gid) };
}
