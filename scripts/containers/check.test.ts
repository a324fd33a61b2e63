import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTAINER_LAUNCHER_CAPABILITIES } from '@xt/testkit';
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
    write('ops/not-json.json', '{ "defaultAction": ');
    write(
      'docker-compose.yml',
      [
        'services:',
        '  lb:',
        '    image: haproxy',
        '    volumes: ["./ops/lb.cfg:/etc/lb.cfg:ro", "data:/data"]',
        '  api:',
        '    build: .',
        '    security_opt: [no-new-privileges:true, seccomp=./ops/gone.json]',
        "    command: ['node', 'apps/api/dist/main.js']",
        '    healthcheck:',
        "      test: ['CMD', 'node', 'apps/api/dist/extra.js', 'apps/api/dist/gone.js']",
        '  worker:',
        '    build: .',
        '    security_opt: [seccomp:./ops/not-json.json]',
        'configs:',
        '  prom:',
        '    file: ./ops/prometheus.yml',
        'volumes:',
        '  data:',
      ].join('\n'),
    );
    expect(checkCompose(root)).toEqual([
      'docker-compose.yml service lb volume: ./ops/lb.cfg is not in the repository',
      'docker-compose.yml service api security_opt: ./ops/gone.json is not in the repository',
      'docker-compose.yml service api healthcheck: runs apps/api/dist/gone.js, which no build script in apps/*/package.json produces',
      expect.stringMatching(
        /^docker-compose\.yml service worker security_opt: \.\/ops\/not-json\.json is not JSON: /,
      ),
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

interface WorkerService {
  command?: string[];
  user?: string;
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
}

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

  it('starts Chromium and LibreOffice as users the image has, from a root launcher with few capabilities', () => {
    const worker = (compose.services as Record<string, WorkerService>).worker;
    expect(worker).toMatchObject({
      user: 'root',
      command: expect.arrayContaining(['apps/worker/dist/helper-launcher.js', '--worker=node']),
      cap_drop: ['ALL'],
      security_opt: expect.arrayContaining([
        'no-new-privileges:true',
        'seccomp=./ops/seccomp/chromium-sandbox.json',
      ]),
    });
    // The capabilities the helper launcher's test gives it.
    expect(worker?.cap_add?.map((c) => c.toLowerCase()).sort()).toEqual(
      [...CONTAINER_LAUNCHER_CAPABILITIES].sort(),
    );
    const dockerfile = readFileSync(path.join(repo, 'Dockerfile'), 'utf8');
    for (const [setting, user] of [
      ['BROWSER_USER', 'xt-browser'],
      [
        'CONVERTER_USER',
        'xt-converter-0,xt-converter-1,xt-converter-2,xt-converter-3,xt-converter-4,xt-converter-5,xt-converter-6,xt-converter-7',
      ],
    ] as const) {
      expect(dockerfile).toMatch(new RegExp(`\\b${setting}=${user}(\\s|$)`, 'm'));
    }
    expect(dockerfile).toMatch(/useradd [^\n]*\bxt-browser\b/);
    expect(dockerfile).toMatch(
      /for i in 0 1 2 3 4 5 6 7; do[^\n]*\n[^\n]*useradd [^\n]*xt-converter-\$i/,
    );
    expect(dockerfile).toMatch(/usermod --append --groups xt-converter-\$i node/);
  });

  it('lets the worker make the namespaces of Chromium’s sandbox, on top of Docker’s default profile', () => {
    const profile = JSON.parse(
      readFileSync(path.join(repo, 'ops/seccomp/chromium-sandbox.json'), 'utf8'),
    ) as {
      defaultAction: string;
      syscalls: {
        names: string[];
        action: string;
        args?: unknown[];
        includes?: object;
        excludes?: object;
      }[];
    };
    expect(profile.defaultAction).toBe('SCMP_ACT_ERRNO');
    const unconditional = profile.syscalls.filter(
      (r) =>
        r.action === 'SCMP_ACT_ALLOW' &&
        !r.args?.length &&
        Object.keys(r.includes ?? {}).length === 0 &&
        Object.keys(r.excludes ?? {}).length === 0,
    );
    const allowed = new Set(unconditional.flatMap((r) => r.names));
    for (const call of ['clone', 'unshare', 'chroot', 'read', 'execve'])
      expect(allowed).toContain(call);
    // Still Docker's default otherwise: kernel modules, keyrings and mounts stay refused.
    for (const call of ['init_module', 'add_key', 'mount', 'kexec_load', 'bpf'])
      expect(allowed).not.toContain(call);
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
