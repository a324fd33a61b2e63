/**
 * What a hostile page can learn of the worker: nothing of its environment. Real Chromium, real
 * renderer; the worker's secrets are a canary put into this process's environment.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowlist } from '@xt/fetcher';
import { createWebpageRenderer, type WebpageRenderer } from '../index.ts';
import { BrowserHost } from './index.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CANARY = `canary-${process.pid}-5e1f`;
const SECRETS = {
  DATABASE_URL: `postgres://u:${CANARY}@db/x`,
  OPENAI_API_KEY: `sk-${CANARY}`,
  XT_ISOLATION_CANARY: CANARY,
};
const FACT = 'Isolation page fact: kestrel 6021';
const ENVIRON = 'file:///proc/self/environ';

/** Pages that try every way we know for a page to reach the browser's environment. */
const PAGES: Record<string, string> = {
  '/frames': `<iframe src="${ENVIRON}"></iframe><iframe src="chrome://version"></iframe><iframe src="view-source:${ENVIRON}"></iframe><object data="${ENVIRON}"></object><embed src="chrome://version">`,
  '/fetch': `<pre id="out"></pre><script>
    const out = document.getElementById('out');
    for (const url of ['${ENVIRON}', 'chrome://version', 'view-source:${ENVIRON}'])
      fetch(url).then((r) => r.text()).then((t) => out.append(t), (e) => out.append(' refused'));
    const xhr = new XMLHttpRequest();
    try { xhr.open('GET', '${ENVIRON}', false); xhr.send(); out.append(xhr.responseText); } catch { out.append(' refused'); }
  </script>`,
  '/navigate-file': `<script>location.href = '${ENVIRON}';</script>`,
  '/navigate-chrome': `<script>location.href = 'chrome://version';</script>`,
  '/open': `<script>window.open('chrome://version'); window.open('${ENVIRON}');</script>`,
};

let server: http.Server;
let origin: string;
let renderer: WebpageRenderer;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const [name, value] of Object.entries(SECRETS)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  server = http.createServer((req, res) => {
    const body = PAGES[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Hostile</title></head><body><h1>Hostile page</h1><p>${FACT}</p>${body ?? ''}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin = `http://${hostPort}`;
  renderer = createWebpageRenderer({
    executablePath: CHROMIUM,
    environment: process.env,
    allowlist: parseAllowlist(hostPort),
    pageTimeoutMs: 15_000,
    networkIdleMs: 300,
    maxPagesPerBrowser: 100,
    maxHtmlBytes: 2 ** 20,
  });
});

afterAll(async () => {
  await renderer?.close();
  server?.close();
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

/** Everything a render hands back (text, screenshots, metadata), or its failure, as one string. */
async function whatRenderReturns(url: string): Promise<string> {
  return renderer.render(url).then(
    (out) => JSON.stringify(out),
    (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err)),
  );
}

describe('browser isolation: pages', () => {
  it.each(Object.keys(PAGES))(
    'a page that reaches for file: and chrome: URLs (%s) gets nothing of the environment',
    async (path) => {
      const returned = await whatRenderReturns(`${origin}${path}`);
      expect(returned).not.toContain(CANARY);
      // The page itself was read, so the render did look at what it showed.
      if (!path.startsWith('/navigate')) expect(returned).toContain(FACT);
    },
  );

  it.each([ENVIRON, 'chrome://version', `view-source:${ENVIRON}`])(
    'a source URL of %s is refused',
    async (url) => {
      const returned = await whatRenderReturns(url);
      expect(returned).not.toContain(CANARY);
      expect(returned).toMatch(/ExtractionFailure/);
    },
  );
});

/** The uid Chromium should run as: `nobody` (BROWSER_USER's default) under root, else our own. */
function expectedUid(): number {
  const own = process.getuid?.() ?? -1;
  if (own !== 0) return own;
  return Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
}

/** Whether this kernel lets an unprivileged process make a user namespace (the sandbox's need). */
function userNamespacesAllowed(): boolean {
  const asNobody =
    process.getuid?.() === 0
      ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']
      : [];
  const [cmd = 'unshare', ...args] = [...asNobody, 'unshare', '--user', 'true'];
  return spawnSync(cmd, args).status === 0;
}

describe('browser isolation: processes', () => {
  it('runs every Chromium process as the unprivileged user, sandboxed, without the secrets', async () => {
    const host = new BrowserHost({
      executablePath: CHROMIUM,
      proxyServer: 'http://127.0.0.1:9',
      environment: process.env,
      maxPagesPerBrowser: 10,
      maxBrowserRssBytes: Number.MAX_SAFE_INTEGER,
      logger: { debug() {}, info() {}, warn() {} },
    });
    try {
      const lease = await host.acquire();
      // A page, so that a renderer process exists to be looked at.
      const page = await lease.browser.newPage();
      await page.goto(`data:text/html,<p>${FACT}</p>`);
      const session = await lease.browser.newBrowserCDPSession();
      const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
        processInfo: { id: number; type: string }[];
      };
      await session.detach();
      const processes = await Promise.all(
        processInfo.map(async (p) => ({
          type: p.type,
          status: await readFile(`/proc/${p.id}/status`, 'utf8'),
          environ: await readFile(`/proc/${p.id}/environ`, 'utf8'),
          cmdline: await readFile(`/proc/${p.id}/cmdline`, 'utf8'),
        })),
      );
      expect(processes.map((p) => p.type)).toContain('renderer');
      // Children write their title over the environment's memory; the browser's is the real one.
      expect(processes.some((p) => p.environ.includes('PATH='))).toBe(true);
      const uid = expectedUid();
      expect(uid).not.toBe(0);
      for (const p of processes) {
        // Real, effective, saved and filesystem uid alike.
        expect(
          /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/m.exec(p.status)?.slice(1).map(Number),
        ).toEqual([uid, uid, uid, uid]);
        expect(/^CapEff:\s+(\w+)$/m.exec(p.status)?.[1]).toMatch(/^0+$/);
        expect(p.environ).not.toContain(CANARY);
        expect(p.cmdline).not.toContain(CANARY);
      }
      if (userNamespacesAllowed()) {
        // Chromium's sandbox: renderers in their own pid namespace, under seccomp-bpf.
        for (const r of processes.filter((p) => p.type === 'renderer')) {
          expect(/^Seccomp:\s+(\d)$/m.exec(r.status)?.[1]).toBe('2');
          expect(/^NSpid:(.*)$/m.exec(r.status)?.[1]?.trim().split(/\s+/).length).toBeGreaterThan(
            1,
          );
        }
      }
      await page.close();
      lease.release();
    } finally {
      await host.close();
    }
  });
});
