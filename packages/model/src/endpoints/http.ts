/*
 * The probe's HTTP: one try per URL, its own timeout, and the outcome as data (a status and
 * the body, or why there was none), so a refusal or a missing endpoint reads as "not this
 * kind of server" instead of an exception.
 */

export type HttpResult =
  | { status: number; json: unknown; text: string }
  | { failure: 'refused' | 'timeout' | 'aborted'; cause: unknown };

export type Http = (
  method: 'GET' | 'POST',
  url: string,
  options: { body?: unknown; timeoutMs: number; headers?: Record<string, string> },
) => Promise<HttpResult>;

export function createHttp(config: {
  apiKey: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}): Http {
  const send = config.fetch ?? fetch;
  return async (method, url, { body, timeoutMs, headers }) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = config.signal ? AbortSignal.any([config.signal, timeout]) : timeout;
    try {
      const res = await send(withoutCredentials(url), {
        method,
        signal,
        headers: {
          authorization: `Bearer ${config.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, json: parse(text), text };
    } catch (cause) {
      if (config.signal?.aborted) return { failure: 'aborted', cause };
      return { failure: timeout.aborted ? 'timeout' : 'refused', cause };
    }
  };
}

/** fetch refuses a URL with user or password in it; they are not sent. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The URL without trailing slashes (a loop: a regex would backtrack on many slashes). */
export function withoutTrailingSlash(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end -= 1;
  return url.slice(0, end);
}
