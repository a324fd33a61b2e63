/**
 * The helper launcher as the worker container's first process (docs/security.md#the-helper-launcher):
 * started as root holding only the capabilities compose leaves the container, it starts the
 * worker unprivileged and serves it, and hands SIGTERM on. Real LibreOffice and Chromium; users
 * of this machine made for the test (LAUNCHER_TEST_USERS).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asContainerRoot,
  CONTAINER_LAUNCHER_CAPABILITIES,
  ensureLauncherTestUsers,
  LAUNCHER_TEST_USERS,
  REPO_ROOT,
  TS_NODE_ARGS,
} from '@xt/testkit';
import { flatTextDocument, officeFile } from '@xt/testkit/fixtures';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const { worker: WORKER, browser: BROWSER, converters: CONVERTERS } = LAUNCHER_TEST_USERS;
const LAUNCHER_MAIN = new URL('./helper-launcher.ts', import.meta.url).pathname;
/** The worker's child runs the sources' own code, as the bundled worker does. */
const source = (file: string) => path.join(REPO_ROOT, 'packages/sources/src', file);

let dir: string;
let worker: { uid: number };

describe.runIf(process.getuid?.() === 0)('the helper launcher as the container starts it', () => {
  beforeAll(async () => {
    ensureLauncherTestUsers();
    worker = { uid: Number(execFileSync('/usr/bin/id', ['-u', WORKER], { encoding: 'utf8' })) };
    dir = await mkdtemp(path.join(os.tmpdir(), 'xt-helper-launcher-it-'));
    await chmod(dir, 0o755);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts the worker unprivileged from the container’s root, with only compose’s capabilities, and serves it', async () => {
    const docx = path.join(dir, 'e2e.docx');
    await writeFile(
      docx,
      await officeFile(flatTextDocument({ paragraphs: ['Through the launcher'] }), 'docx'),
      { mode: 0o644 },
    );
    const code = `import { readFile } from 'node:fs/promises';
      const { createDocumentConverter } = await import(${JSON.stringify(source('document/converter/converter.ts'))});
      const { ChromiumLauncher } = await import(${JSON.stringify(source('webpage/browser/launcher.ts'))});
      const launcher = process.env.HELPER_LAUNCHER;
      const c = createDocumentConverter({ launcher, user: process.env.CONVERTER_USER,
        memoryMb: 3072, timeoutMs: 120000, concurrency: 1, environment: {} });
      const pdf = await c.convertToPdf(await readFile(${JSON.stringify(docx)}), 'docx');
      const l = await ChromiumLauncher.create({ launcher, user: process.env.BROWSER_USER, environment: {} });
      const browser = await l.launch({ headless: true, args: ['--disable-gpu'] });
      const page = await browser.newPage();
      await page.setContent('<p>served</p>');
      const text = await page.textContent('p');
      await browser.close();
      await l.dispose();
      const caps = (await readFile('/proc/self/status', 'utf8')).match(/^CapEff:\\s+(\\w+)/m)[1];
      console.log(JSON.stringify({ uid: process.getuid(), caps, pdf: pdf.subarray(0, 5).toString(), text, sandbox: l.isolation.sandbox }));`;
    const [command = '', ...args] = [
      ...asContainerRoot(CONTAINER_LAUNCHER_CAPABILITIES),
      process.execPath,
      ...TS_NODE_ARGS,
      LAUNCHER_MAIN,
      `--worker=${WORKER}`,
      '--',
      process.execPath,
      ...TS_NODE_ARGS,
      '--input-type=module',
      '--eval',
      code,
    ];
    const stdout = execFileSync(command, args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 240_000,
      env: {
        ...process.env,
        HOME: '/tmp',
        BROWSER_USER: BROWSER,
        CONVERTER_USER: CONVERTERS.join(','),
        CHROMIUM_PATH: CHROMIUM,
      },
    });
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The launcher's own line, which says who runs what: the first an operator reads.
    expect(lines.find((line) => line.name === 'helper-launcher')?.msg).toBe(
      `worker started as ${WORKER} (uid ${worker.uid}) with no capabilities; Chromium only as ${BROWSER}, LibreOffice only as ${CONVERTERS.join(', ')}`,
    );
    expect(lines.find((line) => 'caps' in line)).toEqual({
      uid: worker.uid,
      caps: '0000000000000000',
      pdf: '%PDF-',
      text: 'served',
      sandbox: 'on',
    });
  });

  it('hands SIGTERM to the worker it started and exits as the worker did', async () => {
    const launcherProcess = spawn(
      process.execPath,
      [
        ...TS_NODE_ARGS,
        LAUNCHER_MAIN,
        `--worker=${WORKER}`,
        '--',
        process.execPath,
        '-e',
        `process.on('SIGTERM', () => { console.log('drained'); process.exit(3); });
         console.log('ready'); setInterval(() => undefined, 60_000);`,
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, CONVERTER_USER: CONVERTERS.join(','), BROWSER_USER: BROWSER },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    const ready = new Promise<void>((resolve) =>
      launcherProcess.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('ready')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) =>
      launcherProcess.once('exit', (code) => resolve(code)),
    );
    await ready;
    launcherProcess.kill('SIGTERM');
    expect(await exited).toBe(3);
    // The worker's own lines, in order, around the launcher's log line (JSON, flushed late).
    expect(output.replace(/^\{.*\}\n/gm, '')).toBe('ready\ndrained\n');
  });
});
