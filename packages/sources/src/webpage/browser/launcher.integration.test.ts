/**
 * How the launcher decides the user and the sandbox, and what the launch line says. Real
 * Chromium; a kernel without user namespaces is played by a script in front of it that fails
 * the way Chromium does there.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  asContainerRoot,
  asUnprivileged,
  CONTAINER_WORKER_CAPABILITIES,
  runModuleAs,
} from '@xt/testkit';
import { BrowserHost } from './browser-host.ts';
import { ChromiumLauncher } from './launcher.ts';
import { requireSystemTool } from '../../isolation/system-tool.ts';
import { asUserCommand, lookupUser } from '../../isolation/system-user.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const asRoot = process.getuid?.() === 0;
const LAUNCH = { headless: true, args: ['--disable-gpu'] };

let dir: string;
let noUserNamespaces: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-launcher-test-'));
  // Run by the unprivileged user when the test runs as root.
  await chmod(dir, 0o755);
  noUserNamespaces = path.join(dir, 'chromium-without-userns');
  await writeFile(
    noUserNamespaces,
    `#!/bin/sh
for arg do
  if [ "$arg" = --no-sandbox ]; then exec '${CHROMIUM}' "$@"; fi
done
echo '[1:1:1125/120000.000000:FATAL:content/browser/zygote_host/zygote_host_impl_linux.cc:132] No usable sandbox! If you are running on Ubuntu 23.10+ or another Linux distro that has disabled unprivileged user namespaces with AppArmor, see https://chromium.googlesource.com/chromium/src/+/main/docs/security/apparmor-userns-restrictions.md.' >&2
exit 1
`,
    { mode: 0o755 },
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const nobody = () =>
  `nobody (uid ${execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim()})`;

describe('chromium launcher', () => {
  it('says on its launch line: environment allow-listed, the user, sandbox on', async () => {
    const lines: Record<string, unknown>[] = [];
    const host = new BrowserHost({
      executablePath: CHROMIUM,
      proxyServer: 'http://127.0.0.1:9',
      environment: process.env,
      maxPagesPerBrowser: 10,
      maxBrowserRssBytes: Number.MAX_SAFE_INTEGER,
      logger: {
        debug() {},
        info: (fields: Record<string, unknown>, msg?: string) =>
          void lines.push({ ...fields, msg }),
        warn() {},
      },
    });
    try {
      (await host.acquire()).release();
    } finally {
      await host.close();
    }
    const launched = lines.find((l) => l.msg === 'chromium launched');
    expect(launched).toMatchObject({
      environment: 'allow-listed',
      user: asRoot ? nobody() : `${os.userInfo().username} (uid ${os.userInfo().uid})`,
      sandbox: 'on',
    });
  });

  it('falls back to no sandbox only when the sandbox cannot start, and says why', async () => {
    const launcher = await ChromiumLauncher.create({
      executablePath: noUserNamespaces,
      environment: process.env,
    });
    try {
      expect(launcher.isolation.sandbox).toBe('unknown');
      const first = await launcher.launch(LAUNCH);
      await first.close();
      expect(launcher.isolation.sandbox).toMatch(/^off: No usable sandbox! If you are running/);
      // Remembered: the next launch goes straight to the working one.
      const second = await launcher.launch(LAUNCH);
      await second.close();
    } finally {
      await launcher.dispose();
    }
  });

  it('does not fall back when the browser fails for another reason', async () => {
    const launcher = await ChromiumLauncher.create({
      executablePath: path.join(dir, 'missing-chromium'),
      environment: process.env,
    });
    try {
      await expect(launcher.launch({ ...LAUNCH, timeout: 20_000 })).rejects.toThrow();
      expect(launcher.isolation.sandbox).toBe('unknown');
    } finally {
      await launcher.dispose();
    }
  });

  /** The launcher in a child process started through `wrapper`: its isolation once launched. */
  async function launchedIn(wrapper: string[], user: string) {
    const module = new URL('./launcher.ts', import.meta.url).pathname;
    const printed = await runModuleAs(
      wrapper,
      `const { ChromiumLauncher } = await import(${JSON.stringify(module)});
       const launcher = await ChromiumLauncher.create({ executablePath: ${JSON.stringify(CHROMIUM)},
         environment: process.env, user: ${JSON.stringify(user)} });
       try {
         await (await launcher.launch(${JSON.stringify(LAUNCH)})).close();
         console.log(JSON.stringify(launcher.isolation));
       } finally {
         await launcher.dispose();
       }`,
    );
    return JSON.parse(printed) as Record<string, string>;
  }

  it.runIf(asRoot)(
    'as a container’s root without the helper launcher, with only the capabilities that takes, runs Chromium sandboxed as BROWSER_USER',
    async () => {
      expect(await launchedIn(asContainerRoot(CONTAINER_WORKER_CAPABILITIES), 'nobody')).toEqual({
        environment: 'allow-listed',
        user: nobody(),
        sandbox: 'on',
      });
    },
    300_000,
  );

  it.runIf(asRoot)(
    'started by a user that is not root, runs Chromium as that user and says BROWSER_USER is not applied',
    async () => {
      const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
      expect(await launchedIn(asUnprivileged(uid, gid), 'root')).toEqual({
        environment: 'allow-listed',
        user: nobody(),
        sandbox: 'on',
        userNotApplied: `BROWSER_USER=root is not applied: the worker runs as nobody (uid ${uid}), not root, so Chromium runs as the worker's own user and could read its environment`,
      });
    },
    300_000,
  );

  it.runIf(asRoot)(
    'runs Chromium as root, unsandboxed, only when BROWSER_USER says root',
    async () => {
      const launcher = await ChromiumLauncher.create({
        executablePath: CHROMIUM,
        environment: process.env,
        user: 'root',
      });
      try {
        expect(launcher.isolation).toMatchObject({
          user: 'root (uid 0)',
          sandbox: expect.stringMatching(/^off: /),
        });
        await (await launcher.launch(LAUNCH)).close();
      } finally {
        await launcher.dispose();
      }
    },
  );

  it.runIf(asRoot)('starts its helpers by absolute path, whatever PATH says', async () => {
    // Stand-ins first on PATH, for every tool the launcher and its script use: each notes that
    // it ran, then runs the real one, so a launch through PATH would still work.
    const shims = path.join(dir, 'shims');
    const ran = path.join(dir, 'ran-from-path');
    await mkdir(shims, { recursive: true });
    for (const tool of ['chown', 'setpriv', 'getent', 'mkdir', 'rm', 'rmdir', 'mktemp'])
      await writeFile(
        path.join(shims, tool),
        `#!/bin/sh\necho ${tool} >> '${ran}'\nPATH=/usr/bin:/bin exec ${tool} "$@"\n`,
        { mode: 0o755 },
      );
    const hijacked = `${shims}:${process.env.PATH ?? ''}`;
    const saved = process.env.PATH;
    process.env.PATH = hijacked;
    try {
      const launcher = await ChromiumLauncher.create({
        executablePath: CHROMIUM,
        environment: { ...process.env, PATH: hijacked },
      });
      try {
        await (await launcher.launch(LAUNCH)).close();
      } finally {
        await launcher.dispose();
      }
    } finally {
      process.env.PATH = saved;
    }
    expect(await readFile(ran, 'utf8').catch(() => '')).toBe('');
  });

  it.runIf(asRoot)(
    "deletes the profile it handed to the user as the user: nothing root deletes recursively is the user's",
    async () => {
      const { uid, gid } = await lookupUser('nobody', 'the test');
      // Root's, beside the profile: a planted link to it must not get it deleted.
      const canary = path.join(dir, 'canary');
      await mkdir(canary, { recursive: true });
      await writeFile(path.join(canary, 'keep'), 'root');
      // Every recursive delete this process makes (Playwright's own cleanup included), with the
      // owner of what it deletes, seen as the delete starts.
      const recursive: { target: string; owner: number | undefined }[] = [];
      const realRm = fs.promises.rm;
      const spy = vi.spyOn(fs.promises, 'rm').mockImplementation(async (target, options) => {
        if (options?.recursive)
          recursive.push({
            target: String(target),
            owner: (await lstat(target).catch(() => undefined))?.uid,
          });
        return realRm(target, options);
      });
      let profile: string | undefined;
      try {
        const launcher = await ChromiumLauncher.create({
          executablePath: CHROMIUM,
          environment: process.env,
        });
        try {
          // --enable-automation lets CDP answer with the command line, which names the profile.
          const browser = await launcher.launch({
            ...LAUNCH,
            args: [...LAUNCH.args, '--enable-automation'],
          });
          const session = await browser.newBrowserCDPSession();
          const { arguments: args } = await session.send('Browser.getBrowserCommandLine');
          profile = args.find((a) => a.startsWith('--user-data-dir='))!.split('=')[1]!;
          expect((await lstat(profile)).uid).toBe(uid);
          // What a renderer that got out of its sandbox could do as the user: plant a link.
          const [asNobody = '', ...asNobodyArgs] = asUserCommand({ name: 'nobody', uid, gid });
          execFileSync(asNobody, [
            ...asNobodyArgs,
            requireSystemTool('ln', 'to plant a link'),
            '-s',
            canary,
            path.join(profile, 'planted'),
          ]);
          await browser.close();
        } finally {
          await launcher.dispose();
        }
      } finally {
        spy.mockRestore();
      }
      expect(recursive.length).toBeGreaterThan(0);
      expect(recursive.filter((d) => d.owner === uid)).toEqual([]);
      // The profile is gone, with the directory that held it; the link's target is not.
      expect(await lstat(profile).catch(() => undefined)).toBeUndefined();
      expect(
        await lstat(path.dirname(path.dirname(profile))).catch(() => undefined),
      ).toBeUndefined();
      expect(await readdir(canary)).toEqual(['keep']);
    },
  );

  it.runIf(asRoot)('refuses a BROWSER_USER this machine does not have', async () => {
    await expect(
      ChromiumLauncher.create({
        executablePath: CHROMIUM,
        environment: {},
        user: 'no-such-user-xt',
      }),
    ).rejects.toThrow('BROWSER_USER "no-such-user-xt" is not a user of this machine');
  });
});
