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

/**
 * Throws unless every answer has the status the measure expects. A figure made from refused
 * requests measures the refusal (an account's limit answers in milliseconds, which once read as
 * a negative overhead, "met"): the bench sets every limit it knows off, so a refusal means one it
 * does not know, and the run stops saying which answers came back instead.
 */
export function requireAnswered(answers: readonly Answer[], expected: number, what: string): void {
  const others = answers.filter((a) => a.status !== expected);
  if (others.length === 0) return;
  const kinds = new Map<string, number>();
  for (const a of others) {
    const kind = a.error ? `no answer (${a.error})` : `${a.status} ${codeOf(a.body)}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const seen = [...kinds].map(([kind, n]) => `${kind} ×${n}`).join(', ');
  throw new Error(
    `${others.length} of ${answers.length} ${what} were not answered ${expected} (${seen}); no figure is made from them: lift the limit they name in the bench's stack (scripts/bench/lib/stack.ts) or find why the service refused`,
  );
}

function codeOf(body: string): string {
  try {
    return (JSON.parse(body) as { code?: string }).code ?? 'without a code';
  } catch {
    return 'with a body that is not JSON';
  }
}
