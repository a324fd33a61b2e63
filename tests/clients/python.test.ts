/**
 * The Python SDK (clients/python) against the real service: this file starts the API, a worker
 * process and the model stand-in, then runs the package's unittest suite with `python3`, the
 * service's address and a key in its environment. The suite's own files say what it checks.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { freePort } from '@xt/embedded';
import { REPO_ROOT } from '@xt/testkit';
import { bundlePdf } from '../support/bundle.ts';
import { stackTest } from '../support/stack.ts';

// A port free now, for the suite's webhook receiver: the service must be told it first.
const webhookPort = await freePort();
const allow = { WEBHOOK_ALLOWLIST: `127.0.0.1:${webhookPort}` };
const test = stackTest({
  api: allow,
  worker: { ...allow, WEBHOOK_RELAY_INTERVAL_MS: '100' },
  openApi: false,
});

test('passes the Python SDK unittest suite against the service', async ({ api }) => {
  const cwd = path.join(REPO_ROOT, 'clients', 'python');
  // The bundle the split tests cut: the suite cannot write a PDF with the standard library.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'xt-python-test-'));
  const bundle = path.join(dir, 'bundle.pdf');
  await writeFile(bundle, await bundlePdf());
  const child = spawn('python3', ['-m', 'unittest', 'discover', '-v', '-s', 'tests', '-t', '.'], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PYTHONPATH: path.join(cwd, 'src'),
      PYTHONDONTWRITEBYTECODE: '1',
      XT_BASE_URL: api.url,
      XT_API_KEY: api.keys.write,
      XT_TEST_WEBHOOK_PORT: String(webhookPort),
      XT_TEST_BUNDLE: bundle,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).finally(() => rm(dir, { recursive: true, force: true }));
  expect(output, output).toMatch(/^OK$/m);
  expect(code, output).toBe(0);
  // Every test ran: none skipped for want of the service.
  expect(Number(/^Ran (\d+) tests/m.exec(output)?.[1])).toBeGreaterThanOrEqual(20);
  expect(output).not.toMatch(/skipped/);
}, 300_000);
