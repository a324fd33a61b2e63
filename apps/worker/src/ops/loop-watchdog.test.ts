/**
 * While the worker's event loop is blocked, its /healthz and /readyz do not say it is fine: the
 * request a blocked loop finally serves answers 503 naming the event loop, and the container
 * health check, which waits only so long, gets no answer at all.
 */
import { createServer, type Server } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Registry } from '@xt/telemetry';
import { loopAnswers } from '../healthcheck.ts';
import { startLoopWatchdog, type LoopWatchdog } from './loop-watchdog.ts';
import { startOpsServer, type OpsServer } from './ops-server.ts';

let ops: OpsServer | undefined;
let watchdog: LoopWatchdog | undefined;
let silent: Server | undefined;
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await ops?.close();
  watchdog?.stop();
  silent?.close();
  ops = watchdog = silent = undefined;
});

const fine = () => Promise.resolve();

async function start(thresholdMs: number): Promise<OpsServer> {
  const dog = startLoopWatchdog({ thresholdMs });
  watchdog = dog;
  ops = await startOpsServer({
    port: 0,
    host: '127.0.0.1',
    registry: new Registry(),
    token: undefined,
    probes: { redis: fine, postgres: fine, browser: fine },
    stopping: () => false,
    loopHealthy: () => dog.healthy(),
  });
  return ops;
}

/**
 * Sends `GET` for each of `paths` on its own connection, from a thread of its own, once this
 * thread has raised `flags[1]` (it is then blocked, so it cannot serve them early); counts each
 * request in `flags[0]` once it is in the kernel's hands, and resolves with the raw answers.
 */
function requestFromThread(url: string, paths: string[], flags: Int32Array) {
  const { port } = new URL(url);
  const thread = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const net = require('node:net');
     Atomics.wait(workerData.flags, 1, 0);
     const answers = workerData.paths.map((path) => new Promise((resolve) => {
       const socket = net.connect(Number(workerData.port), '127.0.0.1', () => {
         socket.write('GET ' + path + ' HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n', () =>
           { Atomics.add(workerData.flags, 0, 1); });
       });
       let answer = '';
       socket.on('data', (d) => { answer += d; });
       socket.on('end', () => resolve(answer));
     }));
     Promise.all(answers).then((all) => parentPort.postMessage(all));`,
    { eval: true, workerData: { port, paths, flags } },
  );
  return new Promise<string[]>((resolve, reject) => {
    thread.once('message', (answers: string[]) => {
      resolve(answers);
      void thread.terminate();
    });
    thread.once('error', reject);
  });
}

/**
 * Blocks this thread, lets the request thread go, and goes on blocking `ms` once all `sent`
 * requests are on their way.
 */
function blockFor(ms: number, flags: Int32Array, sent: number): void {
  Atomics.store(flags, 1, 1);
  Atomics.notify(flags, 1);
  while (Atomics.load(flags, 0) < sent) {
    // Spin until the other thread's requests are on their way.
  }
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // A job's synchronous work, hogging the loop.
  }
}

describe('event loop watchdog', () => {
  it('fails /readyz and /healthz for a request served after the loop was blocked, then recovers', async () => {
    const server = await start(300);
    const before = await fetch(`${server.url}/readyz`);
    expect(before.status).toBe(200);
    expect(((await before.json()) as { data: { eventLoop: boolean } }).data.eventLoop).toBe(true);

    const flags = new Int32Array(new SharedArrayBuffer(8));
    // Both probes arrive while the loop is blocked, so both are served just after it frees up
    // (asking for /healthz afterwards would race the watchdog's memory on a busy machine).
    const answered = requestFromThread(server.url, ['/readyz', '/healthz'], flags);
    blockFor(1_000, flags, 2);
    const [ready, health] = await answered;
    expect(ready).toMatch(/^HTTP\/1\.1 503/);
    expect(ready).toMatch(/"eventLoop":false/);
    expect(health).toMatch(/^HTTP\/1\.1 503/);

    // Once the loop has beaten freely for a while, both are fine again.
    await expect
      .poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 10_000 })
      .toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it('has the container health check fail when /healthz does not answer in time', async () => {
    const server = await start(5_000);
    expect(await loopAnswers(server.url, 2_000)).toBe(true);
    // A port that accepts and never answers is what a frozen loop looks like from outside.
    silent = createServer(() => undefined);
    await new Promise<void>((r) => silent!.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    expect(await loopAnswers(`http://127.0.0.1:${port}`, 500)).toBe(false);
  });

  it('still tells of a gap when the process stalls between the beat that saw it and the answer', () => {
    // The clock and the beats are the test's: a busy machine can deschedule the process for a
    // while right after the beat that saw the loop blocked, before the waiting requests are
    // served. That stall is not the loop beating freely, so it must not count as recovery.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const dog = startLoopWatchdog({ thresholdMs: 300, intervalMs: 75 });
    watchdog = dog;
    const beatAt = (t: number) => {
      now = t;
      vi.advanceTimersByTime(75);
    };

    beatAt(1_000); // the first beat after a second of blocked loop
    expect(dog.healthy()).toBe(false);
    now = 1_330; // descheduled for 330 ms, no beat in between
    expect(dog.healthy()).toBe(false);

    // Then the loop beats freely (the overdue beat first) for the threshold, and the watchdog
    // is satisfied.
    for (const t of [1_330, 1_405, 1_480]) {
      beatAt(t);
      expect(dog.healthy()).toBe(false);
    }
    beatAt(1_555);
    expect(dog.healthy()).toBe(true);
  });
});
