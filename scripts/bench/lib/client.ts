/** The load generator: timed HTTP requests and closed-loop clients. */

export interface Answer {
  status: number;
  ms: number;
  headers: Headers;
  body: string;
  /** Set when no HTTP answer came back (connection refused or reset, timeout). */
  error?: string;
}

export async function send(
  url: string,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, {
      ...init,
      signal: AbortSignal.timeout(init.timeoutMs ?? 120_000),
    });
    const body = await res.text();
    return { status: res.status, ms: performance.now() - t0, headers: res.headers, body };
  } catch (error) {
    return {
      status: 0,
      ms: performance.now() - t0,
      headers: new Headers(),
      body: '',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
}

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
