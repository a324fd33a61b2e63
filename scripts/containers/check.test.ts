import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCompose, checkDockerfile, checkDockerfileCmd } from './check.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
let root: string;

function write(relative: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), text);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'xt-containers-'));
  write('package.json', '{}');
  write(
    'apps/api/package.json',
    JSON.stringify({
      scripts: { build: 'node build.mjs main=src/main.ts && tsx x.ts dist/extra.js' },
    }),
  );
  write('.dockerignore', 'node_modules\n**/dist\n');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('Dockerfile sources', () => {
  it('names a COPY source that is not in the repository, across continuation lines', () => {
    write(
      'Dockerfile',
      'FROM node AS build\nCOPY package.json \\\n  missing.lock ./\nCOPY --from=build /app /app\n',
    );
    expect(checkDockerfile(root)).toEqual([
      'Dockerfile:2 COPY missing.lock: not in the repository',
    ]);
  });

  it('names a source .dockerignore keeps out of the build context', () => {
    write('apps/api/dist/main.js', '');
    write('Dockerfile', 'FROM node\nADD ["apps/api/dist/main.js", "/app/"]\n');
    expect(checkDockerfile(root)).toEqual([
      'Dockerfile:2 ADD apps/api/dist/main.js: excluded from the build context by .dockerignore (**/dist)',
    ]);
  });

  it('a CMD must run a file some build script produces', () => {
    write('Dockerfile', 'FROM node\nCMD ["node", "apps/api/dist/server.js"]\n');
    expect(checkDockerfileCmd(root)).toEqual([
      'Dockerfile CMD: runs apps/api/dist/server.js, which no build script in apps/*/package.json produces',
    ]);
  });
});

describe('compose references', () => {
  it('names mounted files that are missing and commands no build produces', () => {
    write('Dockerfile', 'FROM node\n');
    write(
      'docker-compose.yml',
      [
        'services:',
        '  lb:',
        '    image: haproxy',
        '    volumes: ["./ops/lb.cfg:/etc/lb.cfg:ro", "data:/data"]',
        '  api:',
        '    build: .',
        "    command: ['node', 'apps/api/dist/main.js']",
        '    healthcheck:',
        "      test: ['CMD', 'node', 'apps/api/dist/extra.js', 'apps/api/dist/gone.js']",
        'configs:',
        '  prom:',
        '    file: ./ops/prometheus.yml',
        'volumes:',
        '  data:',
      ].join('\n'),
    );
    expect(checkCompose(root)).toEqual([
      'docker-compose.yml service lb volume: ./ops/lb.cfg is not in the repository',
      'docker-compose.yml service api healthcheck: runs apps/api/dist/gone.js, which no build script in apps/*/package.json produces',
      'docker-compose.yml configs.prom: ./ops/prometheus.yml is not in the repository',
    ]);
  });
});

describe('this repository', () => {
  it('Dockerfile and docker-compose.yml refer only to files that exist or are built', () => {
    expect([...checkDockerfile(repo), ...checkDockerfileCmd(repo), ...checkCompose(repo)]).toEqual(
      [],
    );
  });
});

describe('compose exposure', () => {
  const compose = parse(readFileSync(path.join(repo, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, { environment?: Record<string, string>; ports?: string[] }>;
  };

  it('requires METRICS_TOKEN wherever it is passed on', () => {
    const passed = Object.entries(compose.services).filter(
      ([, s]) => s.environment?.METRICS_TOKEN !== undefined,
    );
    expect(passed.length).toBeGreaterThan(0);
    for (const [, service] of passed)
      expect(service.environment?.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN:\?/);
  });

  it('publishes Grafana and Prometheus on the loopback interface only, Grafana without admin/admin', () => {
    for (const name of ['grafana', 'prometheus'])
      for (const port of compose.services[name]?.ports ?? [])
        expect(port).toMatch(/^127\.0\.0\.1:/);
    expect(compose.services.grafana?.environment?.GF_SECURITY_ADMIN_PASSWORD).toBe(
      '${GRAFANA_ADMIN_PASSWORD:-}',
    );
  });
});
