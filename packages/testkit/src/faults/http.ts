/** One HTTP exchange as a client saw it: status 0 when no answer came back. */
export interface Answer {
  status: number;
  ms: number;
  headers: Headers;
  body: string;
  /** Set when no HTTP answer came back (connection refused or reset, timeout). */
  error?: string;
  /** True when the client gave up waiting (the request hung past `timeoutMs`). */
  timedOut?: boolean;
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
    const name = error instanceof Error ? error.name : '';
    return {
      status: 0,
      ms: performance.now() - t0,
      headers: new Headers(),
      body: '',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      timedOut: name === 'TimeoutError',
    };
  }
}
