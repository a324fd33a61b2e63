import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { TS_NODE_ARGS } from '@xt/testkit';

/** Running or sleeping: not gone and not a zombie left for whoever adopted it to reap. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

let dir: string | undefined;
let childPid: number | undefined;
afterEach(async () => {
  if (childPid !== undefined && running(childPid)) process.kill(childPid, 'SIGKILL');
  childPid = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

it('kills a child busy in a task when the process that started it is killed outright', async () => {
  dir = await mkdtemp(join(tmpdir(), 'xt-prep-orphan-'));
  // A task that never yields, as a parser looping on a hostile file: its 'disconnect' handler
  // can never run, so only the kernel can end it.
  const entry = join(dir, 'busy-child.mjs');
  await writeFile(
    entry,
    `process.on('message', () => { process.send({ started: 1 }); console.log(process.pid); for (;;); });\n` +
      `process.send('ready');\n`,
  );
  const worker = join(dir, 'worker.mts');
  const processes = pathToFileURL(join(import.meta.dirname, 'processes.ts')).href;
  await writeFile(
    worker,
    `import { PrepProcesses } from ${JSON.stringify(processes)};\n` +
      `const entry = new URL(${JSON.stringify(pathToFileURL(entry).href)});\n` +
      `const pool = new PrepProcesses({ size: 1, entry, prefix: [], execArgv: [] });\n` +
      `void pool.submit('warm', 600_000);\n` +
      `setInterval(() => {}, 1000);\n`,
  );
  const started = spawn(process.execPath, [...TS_NODE_ARGS, worker], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  childPid = await new Promise<number>((resolve, reject) => {
    started.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    started.once('exit', (code) => reject(new Error(`the worker exited with ${code}`)));
  });
  expect(running(childPid)).toBe(true);

  started.kill('SIGKILL');
  for (let i = 0; i < 200 && running(childPid); i++) await sleep(50);
  expect(running(childPid)).toBe(false);
});
