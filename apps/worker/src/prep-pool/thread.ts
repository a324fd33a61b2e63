import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { answer } from './run-task.ts';
import type { PrepRequest } from './tasks.ts';

if (!parentPort) throw new Error('thread.ts runs only as a worker thread of the prep pool');
const port = parentPort;

// The pool already runs one task per core; libvips fanning each task out over every core too
// would only oversubscribe the CPU.
sharp.concurrency(1);
// Every source is seen once: an operation cache would only hold memory.
sharp.cache(false);

port.on('message', (request: PrepRequest) => {
  void answer(request.id, request.task).then((response) => port.postMessage(response));
});

// Every import has been evaluated by now: tell the pool this thread can take work.
port.postMessage({ ready: true });
