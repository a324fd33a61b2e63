import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkComposeConfig, composeProfiles } from './compose-config.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'xt-compose-config-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const composeInstalled = !spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).error;

describe('compose config', () => {
  it('lists each profile once, whatever the order the services name them in', () => {
    const text = [
      'services:',
      '  a: { image: x, profiles: [zeta] }',
      '  b: { image: x }',
      '  c: { image: x, profiles: [alpha, zeta] }',
    ].join('\n');
    expect(composeProfiles(text)).toEqual(['alpha', 'zeta']);
  });

  it('says when docker-compose is not there rather than passing the file', () => {
    writeFileSync(path.join(root, 'docker-compose.yml'), 'services:\n  a: { image: x }\n');
    expect(checkComposeConfig(root, 'no-such-compose-binary')).toBeUndefined();
  });

  // CI installs docker-compose (the system-package catalogue); a developer machine may not have it.
  it.skipIf(!composeInstalled)(
    'finds a volume that a service of an optional profile uses and nobody declared',
    () => {
      writeFileSync(
        path.join(root, 'docker-compose.yml'),
        [
          'services:',
          '  api:',
          '    image: x',
          '    environment:',
          '      TOKEN: ${METRICS_TOKEN:?set it}',
          '  model:',
          '    image: y',
          '    profiles: [local-model]',
          '    volumes: [models:/data]',
        ].join('\n'),
      );
      const problems = checkComposeConfig(root);
      expect(problems).toEqual([expect.stringMatching(/local-model.*: Named volume "models:/)]);
    },
  );
});
