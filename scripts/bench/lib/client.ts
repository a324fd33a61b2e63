/** The load generator: timed HTTP requests and closed-loop clients. */

import type { Answer } from '@xt/testkit/faults';

export { send, type Answer } from '@xt/testkit/faults';

/**
 * `clients` loops, each sending one request after the other until `until()` says stop. Returns
 * every answer; `next` numbers requests across clients.
 */
export async function closedLoop(
  clients: number,
  until: (sent: number) => boolean,
  request: (n: number) => Promise<Answer>,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!until(sent)) {
        const n = sent++;
        answers.push(await request(n));
      }
    }),
  );
  return answers;
}

export const forMs = (ms: number): (() => boolean) => {
  const end = performance.now() + ms;
  return () => performance.now() >= end;
};
