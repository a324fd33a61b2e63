import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseDockerfile } from './dockerfile.ts';

/**
 * The worker parses every hostile file in-process (sharp, the canvas, pdf.js, ExcelJS, the mail
 * parsers), so it must never run as root (docs/security.md#the-helper-launcher): the image's
 * default user is not root, and a compose service that runs the worker as root does so only
 * through the helper launcher, which starts it as an unprivileged `--worker`.
 */

const WORKER = 'apps/worker/dist/main.js';
const LAUNCHER = 'apps/worker/dist/helper-launcher.js';

/** `root`, `0`, `root:…`, `0:…` (compose's and Docker's `user` forms). */
const isRoot = (user: string): boolean => /^(root|0)(:.*)?$/.test(user.trim());

interface Service {
  user?: unknown;
  command?: unknown;
}

export function checkUsers(
  root: string,
  dockerfile = 'Dockerfile',
  composeFile = 'docker-compose.yml',
): string[] {
  const problems: string[] = [];
  const imageUser = parseDockerfile(readFileSync(path.join(root, dockerfile), 'utf8')).user;
  if (imageUser === undefined || isRoot(imageUser))
    problems.push(
      `${dockerfile}: the image's default USER is ${imageUser ?? 'root (no USER)'}; it must be an unprivileged user`,
    );
  const doc = parse(readFileSync(path.join(root, composeFile), 'utf8'), { merge: true }) as {
    services?: Record<string, Service>;
  } | null;
  for (const [name, service] of Object.entries(doc?.services ?? {})) {
    const command = Array.isArray(service.command) ? service.command.map(String) : [];
    if (!command.includes(WORKER)) continue;
    const user = typeof service.user === 'string' ? service.user : (imageUser ?? 'root');
    if (!isRoot(user)) continue;
    const where = `${composeFile} service ${name}`;
    const separator = command.indexOf('--');
    if (!command.includes(LAUNCHER) || separator < 0 || command.indexOf(LAUNCHER) > separator) {
      problems.push(
        `${where}: runs the worker as ${user}; run it as an unprivileged user, or start it through ${LAUNCHER} (which runs it as --worker)`,
      );
      continue;
    }
    const worker = command
      .slice(0, separator)
      .find((arg) => arg.startsWith('--worker='))
      ?.slice('--worker='.length);
    if (worker !== undefined && isRoot(worker))
      problems.push(`${where}: the helper launcher's --worker is ${worker}; it must not be root`);
  }
  return problems;
}
