import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDockerfile } from './check.ts';
import { checkBuildContext, NEVER_IN_IMAGE } from './context.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const folders: string[] = [];

function withDockerignore(text: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'xt-context-'));
  folders.push(root);
  writeFileSync(path.join(root, '.dockerignore'), text);
  return root;
}
afterEach(() => {
  for (const root of folders.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("the image's build context", () => {
  it("keeps the operator's secrets, keys and local state out", () => {
    expect(checkBuildContext(repo)).toEqual([]);
  });

  it('still holds everything the Dockerfile copies', () => {
    expect(checkDockerfile(repo)).toEqual([]);
  });

  it('matches as Docker does: a bare name holds only beside the Dockerfile', () => {
    expect(checkBuildContext(withDockerignore('.env\n.data\n*.pem\n'))).toEqual(
      expect.arrayContaining([
        '.dockerignore: apps/api/.env would be sent to the build context and copied into the image',
        '.dockerignore: ops/haproxy/certs/site.pem would be sent to the build context and copied into the image',
        '.dockerignore: apps/launcher/.data/stack.json would be sent to the build context and copied into the image',
      ]),
    );
  });

  it('lets a later exception bring a secret back, and says so', () => {
    const problems = checkBuildContext(withDockerignore('**/.env\n**/.data\n!.data/stack.json\n'));
    expect(problems).toContain(
      '.dockerignore: .data/stack.json would be sent to the build context and copied into the image',
    );
    expect(problems).not.toContain(expect.stringMatching(/: \.env would/));
  });

  it('lists every path when there is no .dockerignore', () => {
    expect(checkBuildContext(withDockerignore(''))).toHaveLength(NEVER_IN_IMAGE.length);
  });
});
