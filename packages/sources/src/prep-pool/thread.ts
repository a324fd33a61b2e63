/**
 * The pool's thread entry, loaded by piscina in each thread. Its imports (sharp, pdf.js) are
 * evaluated before piscina reports the thread ready, so a thread that cannot even load fails
 * before it is given a task.
 */
import type { MessagePort } from 'node:worker_threads';
import sharp from 'sharp';
import { answer } from './run-task.ts';
import type { PrepRequest, PrepResponse } from './tasks.ts';

// The pool already runs one task per core; libvips fanning each task out over every core too
// would only oversubscribe the CPU.
sharp.concurrency(1);
// Every source is seen once: an operation cache would only hold memory.
sharp.cache(false);

export default async function prepare(
  request: PrepRequest & { started?: MessagePort },
): Promise<PrepResponse | { warm: true }> {
  // The pool's deadline counts from here, not from when the task was queued.
  request.started?.postMessage(true);
  request.started?.close();
  if (request.task === 'warm') return { warm: true };
  return answer(request.id, request.task);
}
