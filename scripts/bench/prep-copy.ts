/**
 * `npx tsx scripts/bench/prep-copy.ts [--sizes 0.0625,1,10,50] [--runs 10]`
 *
 * What the prep pool pays since its tasks run in processes (#38) instead of threads: the bytes
 * of a source are copied over the process's IPC channel where a thread took them without a copy.
 * For each size, the round trip of a message carrying that many bytes to a forked process
 * (`serialization: 'advanced'`, as the pool sends them) and to a worker thread (the buffer
 * transferred), each answering with the length only; then the pool's own round trip for a task
 * of that size that fails at once (bytes that are no message), so nearly all of it is the trip.
 * Figures, never a verdict (docs/performance.md quotes them).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createPrepPool } from '@xt/sources';

// One echo for both: a thread has a parent port, a forked process an IPC channel.
const ECHO = `const n = (m) => ({ n: m.bytes.byteLength });
const { parentPort } = require('node:worker_threads');
if (parentPort) parentPort.on('message', (m) => parentPort.postMessage(n(m)));
else process.on('message', (m) => process.send(n(m)));`;
const echo = path.join(mkdtempSync(path.join(tmpdir(), 'prep-copy-')), 'echo.cjs');
writeFileSync(echo, ECHO);

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '0.0625,1,10,50' }, runs: { type: 'string' } },
});
const sizes = values.sizes.split(',').map(Number);

const child = fork(echo, [], { serialization: 'advanced' });
const thread = new Worker(echo);

const toChild = (bytes: Uint8Array) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ bytes });
  });
const toThread = (bytes: Uint8Array) =>
  new Promise((resolve) => {
    thread.once('message', resolve);
    thread.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]);
  });

const pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
await pool.warm();
// No Outlook message: refused on its first eight bytes, so nearly all of the time is the trip.
const toPool = (bytes: Uint8Array) =>
  pool.runPrep({ kind: 'email', bytes, format: 'msg', maxParts: 10 }).catch(() => 0);

async function perRun(send: (b: Uint8Array) => Promise<unknown>, mib: number, runs: number) {
  const bytes = () => new Uint8Array(Math.round(mib * 1024 * 1024)).fill(7);
  await send(bytes());
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const b = bytes(); // filled outside the timing
    const start = performance.now();
    await send(b);
    total += performance.now() - start;
  }
  return (total / runs).toFixed(2);
}

console.log('MiB\tprocess ms\tthread ms\tpool ms');
for (const mib of sizes) {
  const runs = Number(values.runs ?? (mib >= 10 ? 5 : 20));
  const row = [
    await perRun(toChild, mib, runs),
    await perRun(toThread, mib, runs),
    await perRun(toPool, mib, runs),
  ];
  console.log([mib, ...row].join('\t'));
}
child.kill();
await thread.terminate();
await pool.close();
