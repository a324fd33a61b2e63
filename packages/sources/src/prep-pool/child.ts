/**
 * The pool's process entry (processes.ts starts one per slot). Its imports (sharp, pdf.js) are
 * evaluated before it says it is ready, so a process that cannot even load fails before it is
 * given a task.
 */
import sharp from 'sharp';
import { answer } from './run-task.ts';
import type { PrepRequest, PrepResponse } from './tasks.ts';

export type ChildAnswer = PrepResponse | { warm: true };
/** child → pool: loaded; a task picked up (its deadline starts); a task answered. */
export type ChildMessage = 'ready' | { started: number } | { answer: ChildAnswer };

// The pool already runs one task per core; libvips fanning each task out over every core too
// would only oversubscribe the CPU.
sharp.concurrency(1);
// Every source is seen once: an operation cache would only hold memory.
sharp.cache(false);

const send = (message: ChildMessage) => process.send?.(message);

process.on('message', (request: PrepRequest) => {
  send({ started: request.id });
  if (request.task === 'warm') {
    send({ answer: { warm: true } });
    return;
  }
  void answer(request.id, request.task).then((response) => {
    try {
      send({ answer: response });
    } catch (err) {
      // A result the channel cannot carry is this service's bug, not the source's.
      const message = err instanceof Error ? err.message : String(err);
      send({
        answer: {
          id: request.id,
          ok: false,
          error: { code: 'INTERNAL', message: `Preparation failed: ${message}`, retryable: true },
        },
      });
    }
  });
});
// The pool is gone (it closed, or its process died): nothing is left to answer to.
process.on('disconnect', () => process.exit(0));
send('ready');
