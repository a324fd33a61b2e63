import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseDockerfile } from './dockerfile.ts';

/**
 * What a Docker engine would only find out while building or starting: Dockerfile COPY/ADD
 * sources missing from the build context (or hidden by .dockerignore), files compose mounts
 * that are not in the repo, and commands naming a dist/ file no build script produces.
 */

function dockerignorePatterns(root: string): string[] {
  const file = path.join(root, '.dockerignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('!'))
    .map(withoutSlashesAround);
}

/** The pattern without leading and trailing slashes (a scan: `/\/+$/` is quadratic in a run). */
function withoutSlashesAround(pattern: string): string {
  let start = 0;
  let end = pattern.length;
  while (start < end && pattern[start] === '/') start++;
  while (end > start && pattern[end - 1] === '/') end--;
  return pattern.slice(start, end);
}

function ignored(relative: string, patterns: string[]): string | undefined {
  const parts = relative.split('/');
  // A pattern excludes a path when it matches the path or any folder above it.
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join('/');
    const hit = patterns.find((p) => path.matchesGlob(prefix, p));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

export function checkDockerfile(root: string, dockerfile = 'Dockerfile'): string[] {
  const problems: string[] = [];
  const patterns = dockerignorePatterns(root);
  const { copies } = parseDockerfile(readFileSync(path.join(root, dockerfile), 'utf8'));
  for (const copy of copies) {
    if (copy.fromStage) continue;
    for (const source of copy.sources) {
      const where = `${dockerfile}:${copy.line} ${copy.instruction} ${source}`;
      if (/^https?:\/\//.test(source)) continue;
      const relative = path.posix.normalize(source).replace(/^\.?\/+/, '') || '.';
      if (relative === '.' || relative === './') continue;
      const matches = /[*?[]/.test(relative) ? globSync(relative, { cwd: root }) : [relative];
      if (matches.length === 0 || !matches.some((m) => existsSync(path.join(root, m)))) {
        problems.push(`${where}: not in the repository`);
        continue;
      }
      const hit = ignored(relative, patterns);
      if (hit !== undefined)
        problems.push(`${where}: excluded from the build context by .dockerignore (${hit})`);
    }
  }
  return problems;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (v: Json | undefined): v is { [key: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: Json | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** dist/ entry points each app's build script names (`name=src/x.ts` or `dist/name.js`). */
function builtEntries(root: string): Set<string> {
  const built = new Set<string>();
  for (const manifest of globSync('apps/*/package.json', { cwd: root })) {
    const app = path.dirname(manifest);
    const pkg = JSON.parse(readFileSync(path.join(root, manifest), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    const script = pkg.scripts?.build ?? '';
    for (const m of script.matchAll(/(?:^|\s)([\w-]+)=\S+\.ts/g))
      built.add(`${app}/dist/${m[1]}.js`);
    for (const m of script.matchAll(/(?:^|\s)dist\/([\w./-]+\.js)/g))
      built.add(`${app}/dist/${m[1]}`);
  }
  return built;
}

function checkCommand(args: string[], where: string, built: Set<string>): string[] {
  return args
    .filter((a) => /^apps\/[^/]+\/dist\/.+\.js$/.test(a))
    .filter((a) => !built.has(a))
    .map((a) => `${where}: runs ${a}, which no build script in apps/*/package.json produces`);
}

export function checkCompose(root: string, composeFile = 'docker-compose.yml'): string[] {
  const problems: string[] = [];
  const doc = parse(readFileSync(path.join(root, composeFile), 'utf8'), { merge: true }) as Json;
  const built = builtEntries(root);
  const mustExist = (relative: string, where: string) => {
    if (!existsSync(path.join(root, relative)))
      problems.push(`${where}: ${relative} is not in the repository`);
  };
  const services = isObject(doc) && isObject(doc.services) ? doc.services : {};
  for (const [name, service] of Object.entries(services)) {
    if (!isObject(service)) continue;
    const where = `${composeFile} service ${name}`;
    const build = service.build;
    if (typeof build === 'string') mustExist(path.join(build, 'Dockerfile'), `${where} build`);
    if (isObject(build)) {
      const context = typeof build.context === 'string' ? build.context : '.';
      const dockerfile = typeof build.dockerfile === 'string' ? build.dockerfile : 'Dockerfile';
      mustExist(path.join(context, dockerfile), `${where} build`);
    }
    for (const volume of Array.isArray(service.volumes) ? service.volumes : []) {
      const source =
        typeof volume === 'string'
          ? volume.split(':')[0]
          : isObject(volume) && volume.type === 'bind' && typeof volume.source === 'string'
            ? volume.source
            : undefined;
      // Named volumes have no slash; only paths on the host must exist.
      if (source !== undefined && /^\.{0,2}\//.test(source) && !source.startsWith('/'))
        mustExist(source, `${where} volume`);
    }
    const envFiles =
      typeof service.env_file === 'string' ? [service.env_file] : strings(service.env_file);
    for (const file of envFiles) mustExist(file, `${where} env_file`);
    for (const option of strings(service.security_opt)) {
      const profile = /^seccomp[=:](.+)$/.exec(option)?.[1];
      if (profile === undefined || profile === 'unconfined') continue;
      const problem = seccompProblem(root, profile);
      if (problem) problems.push(`${where} security_opt: ${problem}`);
    }
    problems.push(...checkCommand(strings(service.command), `${where} command`, built));
    if (isObject(service.healthcheck))
      problems.push(
        ...checkCommand(strings(service.healthcheck.test), `${where} healthcheck`, built),
      );
  }
  for (const section of ['configs', 'secrets'] as const) {
    const entries = isObject(doc) && isObject(doc[section]) ? doc[section] : {};
    for (const [name, entry] of Object.entries(entries)) {
      if (isObject(entry) && typeof entry.file === 'string')
        mustExist(entry.file, `${composeFile} ${section}.${name}`);
    }
  }
  return problems;
}

/**
 * A seccomp profile compose hands to the engine is read by compose itself (relative to the
 * project): it must exist and be a profile, or the container does not start.
 */
function seccompProblem(root: string, relative: string): string | undefined {
  const file = path.join(root, relative);
  if (!existsSync(file)) return `${relative} is not in the repository`;
  let profile: Json;
  try {
    profile = JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch (err) {
    return `${relative} is not JSON: ${(err as Error).message}`;
  }
  if (!isObject(profile) || typeof profile.defaultAction !== 'string')
    return `${relative} has no defaultAction`;
  if (!Array.isArray(profile.syscalls)) return `${relative} has no syscalls list`;
  return undefined;
}

/** The image's default CMD, like compose commands, must name a file the build produces. */
export function checkDockerfileCmd(root: string, dockerfile = 'Dockerfile'): string[] {
  const { cmd } = parseDockerfile(readFileSync(path.join(root, dockerfile), 'utf8'));
  return checkCommand(cmd ?? [], `${dockerfile} CMD`, builtEntries(root));
}
