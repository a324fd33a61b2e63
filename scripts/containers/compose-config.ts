import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

/** The profiles a compose file names, so each optional service is resolved too, not only the default set. */
export function composeProfiles(composeText: string): string[] {
  const doc = parse(composeText) as { services?: Record<string, { profiles?: string[] }> };
  const names = Object.values(doc.services ?? {}).flatMap((service) => service.profiles ?? []);
  return [...new Set(names)].sort();
}

/**
 * `docker-compose config` resolves the file as compose itself would run it (interpolation,
 * `depends_on` on services of another profile, volumes and networks named but not declared)
 * without talking to an engine, which the schema lint alone cannot. Debian's docker-compose is
 * Compose v1; the file keeps to what both v1 and v2 read. Variables the file requires (`:?`) get
 * placeholders, and the operator's `.env` is not read, so the check is the same on every clone.
 */
export function checkComposeConfig(root: string, command = 'docker-compose'): string[] | undefined {
  const file = path.join(root, 'docker-compose.yml');
  const profiles = ['', ...composeProfiles(readFileSync(file, 'utf8'))];
  // An empty env file in place of the operator's .env (docker-compose refuses /dev/null).
  const scratch = mkdtempSync(path.join(tmpdir(), 'compose-config-'));
  const envFile = path.join(scratch, 'empty.env');
  writeFileSync(envFile, '');
  try {
    return configEach(root, file, envFile, profiles, command);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function configEach(
  root: string,
  file: string,
  envFile: string,
  profiles: readonly string[],
  command: string,
): string[] | undefined {
  // The same fault seen through several profiles is told once, naming them all.
  const seen = new Map<string, string[]>();
  for (const profile of profiles) {
    const args = ['--env-file', envFile, '-f', file];
    if (profile !== '') args.push('--profile', profile);
    const run = spawnSync(command, [...args, 'config', '-q'], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, METRICS_TOKEN: 'lint-placeholder' },
    });
    if (run.error) return undefined;
    if (run.status === 0) continue;
    const message = (run.stderr || run.stdout).trim();
    seen.set(message, [...(seen.get(message) ?? []), profile === '' ? 'default' : profile]);
  }
  return [...seen].map(
    ([message, where]) => `docker-compose.yml (profiles: ${where.join(', ')}): ${message}`,
  );
}
