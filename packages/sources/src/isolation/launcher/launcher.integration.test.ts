/**
 * The helper launcher (docs/security.md#the-helper-launcher), as the worker container runs it:
 * the launcher root (this test process), the worker an unprivileged user of its own that is a
 * member of the converter users' groups, and the helpers the users the launcher allows. Real
 * LibreOffice and Chromium; users of this machine made for the test.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUnprivileged,
  ensureLauncherTestUsers,
  LAUNCHER_TEST_USERS,
  runModuleAs,
} from '@xt/testkit';
import { flatTextDocument, officeFile } from '@xt/testkit/fixtures';
import { createDocumentConverter } from '../../document/converter/converter.ts';
import { lookupUser, type SystemUser } from '../system-user.ts';
import { launcherCommand } from './command.ts';
import type { HelperExit, HelperRequest } from './protocol.ts';
import { startHelperLauncher, workerCommand, type HelperLauncher } from './server.ts';

const asRoot = process.getuid?.() === 0;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const { worker: WORKER, browser: BROWSER, converters: CONVERTERS } = LAUNCHER_TEST_USERS;
const here = (file: string) => new URL(file, import.meta.url).pathname;

let dir: string;
let worker: SystemUser;
let launcher: HelperLauncher;
const spawned = new Map<number, HelperRequest>();
const exits = new Map<number, (exit: HelperExit) => void>();
const exited = (pid: number) => new Promise<HelperExit>((resolve) => exits.set(pid, resolve));
let nextSpawn: ((pid: number) => void) | undefined;

/** Runs `code` (an ES module) as the worker, with its groups and no capabilities. */
const asWorker = (code: string) => runModuleAs(workerCommand(worker, []), code, process.env);

/**
 * A stand-in for LibreOffice that waits until another conversion has started, then tries to read
 * that one's document: who it ran as, and whether it could, is its "PDF".
 */
async function nosyConverter(name: string): Promise<string> {
  const barrier = path.join(dir, `barrier-${name}`);
  execFileSync('/usr/bin/install', ['-d', '-m', '1777', barrier]);
  const fake = path.join(dir, `nosy-soffice-${name}`);
  await writeFile(
    fake,
    `#!/bin/sh
for arg do
  case $prev in --outdir) out=$arg ;; esac
  prev=$arg
done
input=$prev
me=$(id -u)
echo "$input" > ${barrier}/$me
while [ "$(ls ${barrier} | wc -l)" -lt 2 ]; do sleep 0.05; done
other=$(cat $(ls -d ${barrier}/* | grep -v "/$me$"))
if cat "$other" > /dev/null 2>&1; then seen=read; else seen=denied; fi
mkdir -p "$out"
printf '%%PDF- uid=%s other=%s' "$me" "$seen" > "$out/source.pdf"
`,
    { mode: 0o755 },
  );
  return fake;
}

describe.runIf(asRoot)('the helper launcher', () => {
  beforeAll(async () => {
    ensureLauncherTestUsers();
    worker = await lookupUser(WORKER, 'test');
    dir = await mkdtemp(path.join(os.tmpdir(), 'xt-launcher-it-'));
    await chmod(dir, 0o755);
    launcher = await startHelperLauncher({
      dir: path.join(dir, 'socket'),
      worker: WORKER,
      programs: {
        chromium: { path: CHROMIUM, users: [BROWSER], profile: true },
        soffice: { path: '/usr/bin/soffice', users: CONVERTERS },
        true: { path: '/usr/bin/true', users: CONVERTERS },
        rm: { path: '/usr/bin/rm', users: CONVERTERS },
        id: { path: '/usr/bin/id', users: [CONVERTERS[0]] },
        sleep: { path: '/usr/bin/sleep', users: [CONVERTERS[0]] },
        env: { path: '/usr/bin/env', users: [CONVERTERS[0]] },
      },
      onSpawn: (pid, request) => {
        spawned.set(pid, request);
        nextSpawn?.(pid);
      },
      onExit: (pid, exit) => exits.get(pid)?.(exit),
    });
  });

  afterAll(async () => {
    await launcher?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** What the launcher's client prints and its status, run by the worker. */
  const ask = (request: Parameters<typeof launcherCommand>[1]) =>
    asWorker(
      `import { execFile } from 'node:child_process';
       const [command, ...args] = ${JSON.stringify(launcherCommand(launcher.socket, request))};
       execFile(command, args, (err, stdout, stderr) =>
         console.log(JSON.stringify({ status: err ? err.code : 0, stdout, stderr })));`,
    ).then((line) => JSON.parse(line) as { status: number; stdout: string; stderr: string });

  it('runs an allow-listed program as the user asked for, from a worker that is not root', async () => {
    expect(await asWorker(`console.log(process.getuid())`)).toBe(String(worker.uid));
    const converter = await lookupUser(CONVERTERS[0], 'test');
    const answer = await ask({ program: 'id', user: converter.name, args: ['-u'] });
    expect(answer).toEqual({ status: 0, stdout: `${converter.uid}\n`, stderr: '' });
  });

  it('gives the helper the environment asked for and nothing of its own', async () => {
    const answer = JSON.parse(
      await asWorker(
        `import { execFile } from 'node:child_process';
         const [command, ...args] = ${JSON.stringify(launcherCommand(launcher.socket, { program: 'env', user: CONVERTERS[0] }))};
         execFile(command, args, { env: { ONLY: 'this' } }, (err, stdout) => console.log(JSON.stringify(stdout)));`,
      ),
    ) as string;
    expect(answer).toBe('ONLY=this\n');
  });

  it('refuses a program not on its list, a user not allowed for it, and root', async () => {
    for (const [request, why] of [
      [
        { program: 'sh', user: CONVERTERS[0], args: ['-c', 'id'] },
        'sh is not a program this launcher starts',
      ],
      [{ program: 'id', user: CONVERTERS[1] }, `id is not started as ${CONVERTERS[1]}`],
      [{ program: 'id', user: 'root' }, 'id is not started as root'],
      [
        { program: 'id', user: CONVERTERS[0], unshare: ['--user', '--wd=/'] },
        'unshare --wd=/ is not allowed',
      ],
      [
        { program: 'id', user: CONVERTERS[0], env: { 'LD_PRELOAD=x BASH_ENV': 'y' } },
        '"LD_PRELOAD=x BASH_ENV" is not a variable\'s name',
      ],
    ] satisfies [Parameters<typeof launcherCommand>[1], string][]) {
      const answer = await ask(request);
      expect(answer).toEqual({
        status: 126,
        stdout: '',
        stderr: `helper launcher refused: ${why}\n`,
      });
    }
  });

  it('lets no one but the worker connect: a helper user may not have helpers started', async () => {
    const browser = await lookupUser(BROWSER, 'test');
    const answer = await runModuleAs(
      asUnprivileged(browser.uid, browser.gid),
      `import net from 'node:net';
       net.connect(${JSON.stringify(launcher.socket)})
         .on('connect', () => { console.log('connected'); process.exit(0); })
         .on('error', (err) => console.log(err.code));`,
    );
    expect(answer).toBe('EACCES');
  });

  it('kills the helper’s process group when its client goes', async () => {
    const started = new Promise<number>((resolve) => (nextSpawn = resolve));
    const [command = '', ...args] = workerCommand(
      worker,
      launcherCommand(launcher.socket, { program: 'sleep', user: CONVERTERS[0], args: ['600'] }),
    );
    const client = spawn(command, args, { stdio: 'ignore' });
    const pid = await started;
    nextSpawn = undefined;
    const ended = exited(pid);
    expect(existsSync(`/proc/${pid}`)).toBe(true);
    client.kill('SIGKILL');
    expect(await ended).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('converts a DOCX with LibreOffice as a converter user, the worker reading the PDF', async () => {
    const docx = path.join(dir, 'hello.docx');
    await writeFile(
      docx,
      await officeFile(flatTextDocument({ paragraphs: ['Started by the launcher'] }), 'docx'),
      { mode: 0o644 },
    );
    const answer = JSON.parse(
      await asWorker(
        `import { readFile } from 'node:fs/promises';
         const { createDocumentConverter } = await import(${JSON.stringify(here('../../document/converter/converter.ts'))});
         const c = createDocumentConverter({ launcher: ${JSON.stringify(launcher.socket)},
           user: ${JSON.stringify(CONVERTERS.join(','))}, memoryMb: 3072, timeoutMs: 120000,
           concurrency: 1, environment: {} });
         const pdf = await c.convertToPdf(await readFile(${JSON.stringify(docx)}), 'docx');
         console.log(JSON.stringify({ magic: pdf.subarray(0, 5).toString(), isolation: await c.isolation() }));`,
      ),
    ) as { magic: string; isolation: Record<string, string> };
    expect(answer.magic).toBe('%PDF-');
    expect(answer.isolation).toMatchObject({
      network: 'none (own network namespace)',
      processes: 'own /proc (its processes only)',
    });
    const converters = [...spawned.values()].filter((r) => r.program === 'soffice');
    expect(converters.map((r) => r.user)).toEqual([CONVERTERS[0]]);
  });

  it('renders a page in Chromium as the browser user, sandboxed', async () => {
    const marker = `--xt-launcher-test=${process.pid}`;
    const answer = JSON.parse(
      await asWorker(
        `import { readdir, readFile } from 'node:fs/promises';
         const { ChromiumLauncher } = await import(${JSON.stringify(here('../../webpage/browser/launcher.ts'))});
         const l = await ChromiumLauncher.create({ launcher: ${JSON.stringify(launcher.socket)},
           user: ${JSON.stringify(BROWSER)}, environment: {} });
         const browser = await l.launch({ headless: true, args: ['--disable-gpu', ${JSON.stringify(marker)}] });
         const page = await browser.newPage();
         await page.setContent('<p>rendered</p>');
         const text = await page.textContent('p');
         const uids = new Set();
         for (const pid of (await readdir('/proc')).filter((p) => /^\\d+$/.test(p))) {
           const cmdline = await readFile('/proc/' + pid + '/cmdline', 'utf8').catch(() => '');
           // The browser's processes, not the client in front of them (the worker's, with the same argv).
           if (!cmdline.includes(${JSON.stringify(marker)}) || !cmdline.split('\\0')[0].includes('chromium')) continue;
           const status = await readFile('/proc/' + pid + '/status', 'utf8');
           uids.add(Number(/^Uid:\\s+(\\d+)/m.exec(status)[1]));
         }
         await browser.close();
         await l.dispose();
         console.log(JSON.stringify({ text, uids: [...uids], isolation: l.isolation }));`,
      ),
    ) as { text: string; uids: number[]; isolation: Record<string, string> };
    const browser = await lookupUser(BROWSER, 'test');
    expect(answer).toEqual({
      text: 'rendered',
      uids: [browser.uid],
      isolation: {
        environment: 'allow-listed',
        user: `${BROWSER} (uid ${browser.uid}), by the helper launcher`,
        sandbox: 'on',
      },
    });
  });

  it('runs conversions at once as different users, neither able to read the other’s files', async () => {
    const fake = await nosyConverter('launched');
    const second = await startHelperLauncher({
      dir: path.join(dir, 'socket-2'),
      worker: WORKER,
      programs: {
        soffice: { path: fake, users: CONVERTERS },
        true: { path: '/usr/bin/true', users: CONVERTERS },
        rm: { path: '/usr/bin/rm', users: CONVERTERS },
      },
    });
    try {
      const pdfs = JSON.parse(
        await asWorker(
          `const { createDocumentConverter } = await import(${JSON.stringify(here('../../document/converter/converter.ts'))});
           const c = createDocumentConverter({ launcher: ${JSON.stringify(second.socket)},
             user: ${JSON.stringify(CONVERTERS.join(','))}, memoryMb: 512, timeoutMs: 60000,
             concurrency: 2, environment: {} });
           const both = await Promise.all([1, 2].map(() => c.convertToPdf(Buffer.from('PK'), 'docx')));
           console.log(JSON.stringify(both.map((pdf) => pdf.toString())));`,
        ),
      ) as string[];
      const uids = await Promise.all(
        CONVERTERS.map(async (n) => (await lookupUser(n, 'test')).uid),
      );
      expect(pdfs.sort()).toEqual(uids.map((uid) => `%PDF- uid=${uid} other=denied`).sort());
    } finally {
      await second.close();
    }
  });

  it('runs conversions at once as different users from a root worker without it too', async () => {
    const converter = createDocumentConverter({
      executable: await nosyConverter('root'),
      user: CONVERTERS.join(','),
      memoryMb: 512,
      timeoutMs: 60_000,
      concurrency: 2,
      environment: {},
    });
    const pdfs = await Promise.all(
      [1, 2].map(() => converter.convertToPdf(Buffer.from('PK'), 'docx')),
    );
    const uids = await Promise.all(CONVERTERS.map(async (n) => (await lookupUser(n, 'test')).uid));
    expect(pdfs.map((pdf) => pdf.toString()).sort()).toEqual(
      uids.map((uid) => `%PDF- uid=${uid} other=denied`).sort(),
    );
  });
});
