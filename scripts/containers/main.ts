/**
 * `npm run lint:containers` (after dclint has checked docker-compose.yml against the compose
 * schema): the files Dockerfile and compose refer to, the secrets .dockerignore must keep out of
 * the image, that the worker never runs as root, compose's own reading of the file (every profile) when docker-compose is installed,
 * and HAProxy's config when haproxy is installed. No Docker engine needed.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkCompose, checkDockerfile, checkDockerfileCmd } from './check.ts';
import { checkComposeConfig } from './compose-config.ts';
import { checkBuildContext } from './context.ts';
import { checkUsers } from './users.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const problems = [
  ...checkDockerfile(root),
  ...checkDockerfileCmd(root),
  ...checkCompose(root),
  ...checkBuildContext(root),
  ...checkUsers(root),
];

const composeProblems = checkComposeConfig(root);
if (composeProblems === undefined) {
  console.log('lint:containers: docker-compose is not installed; docker-compose.yml not resolved');
} else {
  problems.push(...composeProblems);
}

const haproxy = spawnSync('haproxy', ['-c', '-q', '-f', 'ops/haproxy/haproxy.cfg'], {
  cwd: root,
  encoding: 'utf8',
});
if (haproxy.error) {
  console.log('lint:containers: haproxy is not installed; ops/haproxy/haproxy.cfg not checked');
} else if (haproxy.status !== 0) {
  problems.push(`ops/haproxy/haproxy.cfg: ${(haproxy.stderr || haproxy.stdout).trim()}`);
}

for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log('lint:containers: Dockerfile and docker-compose.yml refer only to files that exist');
