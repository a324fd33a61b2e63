import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import dockerignore from '@balena/dockerignore';

/**
 * What an operator's checkout may hold that must never reach the image: `COPY . .` sends the
 * whole build context, and an image is read by everyone who can pull it and by every user inside
 * it (the converter's and the browser's too). Folders deeper down stand for the same files in
 * any folder, since Docker matches `.env` only beside the Dockerfile.
 */
export const NEVER_IN_IMAGE = [
  '.env',
  '.env.production',
  'apps/api/.env',
  'apps/worker/.env.local',
  '.data/dev-api-key.txt',
  '.data/stack.json',
  '.data/postgres/base/1/1259',
  'apps/launcher/.data/stack.json',
  'server.pem',
  'ops/haproxy/certs/site.pem',
  'ops/tls/private.key',
  'keys/client.p12',
  'keys/client.pfx',
  '.artifacts/openapi.json',
];

/**
 * Each of NEVER_IN_IMAGE that .dockerignore lets into the build context, matched as Docker
 * matches (`@balena/dockerignore`, a port of Docker's own matcher: last pattern wins, `!`
 * brings a path back, `**` spans folders, a pattern without `**` holds only from the root).
 */
export function checkBuildContext(root: string): string[] {
  const file = path.join(root, '.dockerignore');
  const rules = existsSync(file) ? readFileSync(file, 'utf8') : '';
  // A CommonJS module typed as an ES one: its factory is also its own `default`.
  const matcher = dockerignore.default().add(rules);
  return NEVER_IN_IMAGE.filter((p) => !matcher.ignores(p)).map(
    (p) => `.dockerignore: ${p} would be sent to the build context and copied into the image`,
  );
}
