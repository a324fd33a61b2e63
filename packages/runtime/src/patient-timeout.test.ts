/**
 * patientTimeout does not report a timeout for an answer that arrived while the event loop was
 * blocked, as a plain timer does; it still fires when no answer comes, loop busy or not. The
 * answer comes from a worker thread (its own event loop), which says through shared memory the
 * moment it has sent it, so the main thread can stay blocked until then and past the timeout.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patientTimeout } from './patient-timeout.ts';

const ANSWERER = `
const { parentPort, workerData } = require('node:worker_threads');
const sent = new Int32Array(workerData);
parentPort.on('message', () => {
  parentPort.postMessage('answer');
  Atomics.store(sent, 0, 1);
  Atomics.notify(sent, 0);
});
parentPort.postMessage('ready');
`;

let worker: Worker;
let sent: Int32Array;

beforeAll(async () => {
  sent = new Int32Array(new SharedArrayBuffer(4));
  worker = new Worker(ANSWERER, { eval: true, workerData: sent.buffer });
  await new Promise((resolve) => worker.once('message', resolve));
});

afterAll(async () => {
  await worker.terminate();
});

/** Blocks this thread's event loop for `ms`, as a long synchronous task would. */
function block(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

type Timeout = (ms: number, onTimeout: () => void) => () => void;

/**
 * Asks the worker, then blocks until its answer is sent and the timeout has passed. The block
 * runs where a request's work runs (here the check phase; a body's parse runs in the poll phase
 * just before it): the loop's next steps are the timers, then reading what arrived.
 */
function askWhileBlocked(timeout: Timeout, ms: number): Promise<'answer' | 'timeout'> {
  return new Promise((resolve) => {
    setImmediate(() => {
      Atomics.store(sent, 0, 0);
      const cancel = timeout(ms, () => resolve('timeout'));
      worker.once('message', () => {
        cancel();
        resolve('answer');
      });
      const started = performance.now();
      worker.postMessage('ask');
      Atomics.wait(sent, 0, 0, 30_000);
      block(Math.max(0, started + ms * 3 - performance.now()));
    });
  });
}

const plainTimeout: Timeout = (ms, onTimeout) => {
  const timer = setTimeout(onTimeout, ms);
  return () => clearTimeout(timer);
};

describe('patientTimeout', () => {
  it('lets an answer that arrived while the loop was blocked win, where a plain timer does not', async () => {
    // The premise: Node runs expired timers before it reads what arrived.
    expect(await askWhileBlocked(plainTimeout, 100)).toBe('timeout');
    expect(await askWhileBlocked(patientTimeout, 100)).toBe('answer');
  });

  it('times out when nothing answers, with the loop free', async () => {
    const outcome = await new Promise((resolve) => {
      patientTimeout(20, () => resolve('timeout'));
    });
    expect(outcome).toBe('timeout');
  });

  it('times out when nothing answers while the loop stays blocked', async () => {
    let fired = false;
    patientTimeout(20, () => (fired = true));
    // Every turn of the loop blocks past the timer again, as a process starved of CPU would.
    for (let turn = 0; turn < 100 && !fired; turn++) {
      block(60);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(fired).toBe(true);
  });

  it('never fires once cancelled', async () => {
    let fired = false;
    const cancel = patientTimeout(10, () => (fired = true));
    cancel();
    block(50);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fired).toBe(false);
  });
});
