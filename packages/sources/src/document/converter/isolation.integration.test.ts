/**
 * What a hostile document can make the converter do: nothing it names is fetched, it sees none of
 * the worker's settings, runs as nobody without network under a memory bound, and a converter
 * that hangs or dies fails the conversion, leaving nothing running. Real LibreOffice for the
 * documents; small scripts standing in for a LibreOffice that misbehaves.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asContainerRoot,
  CONTAINER_WORKER_CAPABILITIES,
  failureOf,
  runModuleAs,
  waitFor,
} from '@xt/testkit';
import { linkedContentDocx, linkedContentOdt, SOFFICE } from '@xt/testkit/fixtures';
import { createDocumentConverter, type DocumentConverterOptions } from './converter.ts';

const run = promisify(execFile);
const CANARY = `canary-${process.pid}-d0c5`;
const SECRETS = { DATABASE_URL: `postgres://u:${CANARY}@db/x`, OPENAI_API_KEY: `sk-${CANARY}` };

let canary: http.Server;
let origin: string;
const hits: string[] = [];
let scripts: string;

beforeAll(async () => {
  canary = http.createServer((req, res) => {
    hits.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  // Readable and runnable by the unprivileged user the converter runs as.
  scripts = await mkdtemp(path.join(os.tmpdir(), 'xt-fake-soffice-'));
  await chmod(scripts, 0o755);
});

afterAll(async () => {
  canary?.close();
  await rm(scripts, { recursive: true, force: true });
});

const converter = (opts: Partial<DocumentConverterOptions> = {}) =>
  createDocumentConverter({
    memoryMb: 1024,
    timeoutMs: 180_000,
    concurrency: 1,
    environment: { ...process.env, ...SECRETS },
    ...opts,
  });

/** A stand-in for soffice: a shell script that finds `--outdir` and does what `body` says. */
async function fakeSoffice(name: string, body: string): Promise<string> {
  const file = path.join(scripts, name);
  await writeFile(
    file,
    `#!/bin/sh\nprev=\nfor a do [ "$prev" = --outdir ] && out=$a; prev=$a; done\nmkdir -p "$out"\n${body}\n`,
  );
  await chmod(file, 0o755);
  return file;
}

const nobody = () =>
  process.getuid?.() === 0
    ? Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim())
    : process.getuid?.();

describe('document converter isolation', () => {
  it('runs without the worker’s settings, as nobody, without network, memory bounded', async () => {
    const probe = await fakeSoffice(
      'probe',
      `{ printf '%%PDF-1.4\\n'; echo "uid=$(id -u)"; echo "as=$(ulimit -v)"; echo "dir=$(dirname "$out")"; echo "procs=$(ls /proc | grep -c '^[0-9]')"; echo "listed=$(ls "$(dirname "$(dirname "$out")")" >/dev/null 2>&1 && echo yes || echo no)"; env; echo interfaces:; tail -n +3 /proc/net/dev; } > "$out/source.pdf"`,
    );
    const c = converter({ executable: probe });
    const seen = (await c.convertToPdf(Buffer.from('x'), 'docx')).toString('utf8');
    // Its directory is gone once the conversion has answered (removed as the user, when root).
    const dir = /^dir=(.+)$/m.exec(seen)?.[1];
    expect(dir).toMatch(/xt-convert-/);
    expect(existsSync(dir!)).toBe(false);
    expect(seen).not.toContain(CANARY);
    expect(seen).toMatch(new RegExp(`^uid=${nobody()}$`, 'm'));
    expect(seen).toMatch(/^as=1048576$/m);
    const isolation = await c.isolation();
    expect(isolation).toMatchObject({
      environment: 'allow-listed',
      memory: '1024 MiB address space',
      processes: expect.stringMatching(
        /^(own \/proc \(its processes only\)|the host's \/proc: .+)$/,
      ),
    });
    // Another conversion's directory is not found by listing where they all are.
    if (process.getuid?.() === 0) expect(seen).toMatch(/^listed=no$/m);
    if (isolation.processes.startsWith('own')) {
      // Its own processes only (the shell, ls, grep and the like): not another conversion's.
      expect(Number(/^procs=(\d+)$/m.exec(seen)?.[1])).toBeLessThan(10);
    }
    if (isolation.network.startsWith('none')) {
      // Only the namespace's own loopback: no interface that leads anywhere.
      const interfaces = seen.slice(seen.indexOf('interfaces:')).split('\n').slice(1, -1);
      expect(interfaces.map((l) => l.split(':')[0]!.trim()).filter(Boolean)).toEqual(['lo']);
    }
  });

  it.runIf(process.getuid?.() === 0)(
    'as a container’s root (no CAP_SYS_ADMIN), runs as its user in namespaces that user makes',
    async () => {
      const probe = await fakeSoffice(
        'probe-in-container',
        `{ printf '%%PDF-1.4\\n'; echo "uid=$(id -u)"; env; echo interfaces:; tail -n +3 /proc/net/dev; } > "$out/source.pdf"`,
      );
      const module = new URL('./converter.ts', import.meta.url).pathname;
      const printed = await runModuleAs(
        asContainerRoot(CONTAINER_WORKER_CAPABILITIES),
        `const { createDocumentConverter } = await import(${JSON.stringify(module)});
         const c = createDocumentConverter({ executable: ${JSON.stringify(probe)}, user: 'nobody',
           memoryMb: 1024, timeoutMs: 180000, concurrency: 1, environment: process.env });
         const seen = (await c.convertToPdf(Buffer.from('x'), 'docx')).toString('utf8');
         console.log(JSON.stringify({ seen, isolation: await c.isolation() }));`,
        { ...process.env, ...SECRETS },
      );
      const { seen, isolation } = JSON.parse(printed) as {
        seen: string;
        isolation: { user: string; network: string };
      };
      // Root may not make a network namespace here; the converter's user makes one of its own.
      expect(isolation).toMatchObject({ network: 'none (own network namespace)' });
      expect(isolation.user).toBe(`nobody (uid ${nobody()})`);
      expect(seen).toMatch(new RegExp(`^uid=${nobody()}$`, 'm'));
      expect(seen).not.toContain(CANARY);
      const interfaces = seen.slice(seen.indexOf('interfaces:')).split('\n').slice(1, -1);
      expect(interfaces.map((l) => l.split(':')[0]!.trim()).filter(Boolean)).toEqual(['lo']);
    },
    300_000,
  );

  it('fetches nothing a document links to, with or without its network namespace', async () => {
    const docx = await linkedContentDocx(origin);
    const odt = await linkedContentOdt(origin);
    // The files do reach out when LibreOffice is left to itself: a fresh default profile.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'xt-linked-control-'));
    try {
      await writeFile(path.join(dir, 'linked.docx'), docx);
      await run(
        SOFFICE,
        [
          `-env:UserInstallation=file://${dir}/profile`,
          '--headless',
          '--norestore',
          '--convert-to',
          'pdf',
          '--outdir',
          dir,
          path.join(dir, 'linked.docx'),
        ],
        { timeout: 180_000, env: { ...process.env, HOME: dir } },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(
      hits.length,
      'the control conversion should have fetched the linked image',
    ).toBeGreaterThan(0);
    hits.length = 0;
    for (const network of ['isolated', 'shared'] as const) {
      const c = converter({ network });
      for (const [bytes, format] of [
        [docx, 'docx'],
        [odt, 'odt'],
      ] as const) {
        const pdf = await c.convertToPdf(bytes, format);
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      }
    }
    expect(hits).toEqual([]);
  }, 600_000);

  it('kills a converter that hangs at its deadline, with everything it started', async () => {
    const marker = `xt-hang-${process.pid}`;
    const sleeper = path.join(scripts, marker);
    await copyFile('/bin/sleep', sleeper);
    await chmod(sleeper, 0o755);
    // One child in the group, one that left it (setsid): neither may outlive the deadline.
    const hang = await fakeSoffice(
      'hang',
      `"${sleeper}" 3600 & setsid "${sleeper}" 3600 & exec "${sleeper}" 3600`,
    );
    const started = Date.now();
    const failure = await failureOf(
      converter({ executable: hang, timeoutMs: 2000 }).convertToPdf(Buffer.from('x'), 'docx'),
    );
    expect(failure).toMatchObject({ code: 'TIMEOUT', retryable: false });
    expect(failure.message).toContain('CONVERT_TIMEOUT_MS');
    expect(Date.now() - started).toBeLessThan(60_000);
    const left = () =>
      run('pgrep', ['-f', marker]).then(
        (r) => r.stdout.trim(),
        () => '',
      );
    // Killing is asynchronous: give the kernel a moment to reap the namespace.
    await waitFor(async () => (await left()) === '', 30_000);
  });

  it('fails a conversion whose converter dies, and the next one still works', async () => {
    // As LibreOffice's launcher does when soffice.bin dies: it exits with 128 + the signal.
    const crash = await fakeSoffice('crash', "sh -c 'kill -SEGV $$'; exit $?");
    const failure = await failureOf(
      converter({ executable: crash }).convertToPdf(Buffer.from('x'), 'pptx'),
    );
    expect(failure).toMatchObject({ code: 'SOURCE_UNREADABLE' });
    expect(failure.message).toContain('SIGSEGV');
    const nothing = await fakeSoffice('nothing', 'exit 0');
    expect(
      await failureOf(converter({ executable: nothing }).convertToPdf(Buffer.from('x'), 'docx')),
    ).toMatchObject({
      code: 'SOURCE_UNREADABLE',
      message: 'LibreOffice could not read the DOCX file: it may be damaged.',
    });
  });

  it('reads back only a regular file of its own: no FIFO to hang on, no link to follow', async () => {
    // A PDF the converter's user may not read: a link to it must not make the worker read it.
    const secret = path.join(scripts, 'secret.pdf');
    await writeFile(secret, `%PDF-1.4 ${CANARY}`, { mode: 0o600 });
    const link = await fakeSoffice('link', `ln -s "${secret}" "$out/source.pdf"`);
    const fifo = await fakeSoffice('fifo', 'mkfifo "$out/source.pdf"');
    for (const executable of [link, fifo]) {
      const started = Date.now();
      const failure = await failureOf(
        converter({ executable }).convertToPdf(Buffer.from('x'), 'docx'),
      );
      expect(failure).toMatchObject({ code: 'SOURCE_UNREADABLE' });
      expect(failure.message).not.toContain(CANARY);
      expect(Date.now() - started).toBeLessThan(20_000);
    }
  }, 40_000);

  it('says so when LibreOffice is not there', async () => {
    const failure = await failureOf(
      converter({ executable: path.join(scripts, 'no-soffice') }).convertToPdf(
        Buffer.from('x'),
        'docx',
      ),
    );
    expect(failure).toMatchObject({ code: 'SOURCE_UNSUPPORTED' });
    expect(failure.message).toContain('CONVERTER_PATH');
  });
});
