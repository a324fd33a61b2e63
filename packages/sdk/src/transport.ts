import { backoffDelay, parseRetryAfter, sleep, type BackoffOptions } from './backoff.ts';
import { ApiError, NetworkError, type ErrorEnvelope } from './errors.ts';

export interface TransportOptions {
  /** Where the service is, e.g. `https://xt.example.com`; `/v1` is added unless present. */
  baseUrl: string;
  apiKey: string;
  /** Retries after the first try, for network errors, 429 and 503. Default 3. */
  maxRetries?: number;
  /** Default: first cap 500 ms, at most 30 s between tries. */
  backoff?: Partial<BackoffOptions>;
  /** Another fetch (a proxy agent, a recorder); defaults to the global one. */
  fetch?: typeof fetch;
}

/** Options every call takes. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Extra request headers, e.g. an `x-request-id` to find the call in the service's logs. */
  headers?: Record<string, string>;
}

export interface HttpRequest extends CallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: object;
  json?: unknown;
  form?: FormData;
  /**
   * Whether a request that may have reached the service can be sent again: true for reads,
   * replacements and deletes, and for creates carrying an Idempotency-Key (the service
   * answers a repeat with the same resource). 429 and 503 are retried regardless, since the
   * service did not act on them.
   */
  resendable: boolean;
  /** The answer's bytes as they come (a file), not a JSON envelope; errors are still JSON. */
  bytes?: boolean;
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

const RETRY_STATUSES = new Set([429, 503]);

export class Transport {
  private readonly base: string;
  private readonly apiKey: string;
  private readonly maxRetries: number;
  private readonly backoff: BackoffOptions;
  private readonly fetchFn: typeof fetch;

  constructor(options: TransportOptions) {
    let end = options.baseUrl.length;
    while (end > 0 && options.baseUrl[end - 1] === '/') end--;
    const trimmed = options.baseUrl.slice(0, end);
    this.base = trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
    this.apiKey = options.apiKey;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoff = { baseMs: 500, maxMs: 30_000, ...options.backoff };
    this.fetchFn = options.fetch ?? globalThis.fetch;
  }

  /** Backoff settings, shared with polling so one knob tunes both. */
  get backoffOptions(): BackoffOptions {
    return this.backoff;
  }

  async request<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const url = this.url(req.path, req.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...req.headers,
      authorization: `Bearer ${this.apiKey}`,
    };
    let body: string | FormData | undefined;
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) {
      // fetch writes the multipart boundary itself; a FormData of Blobs can be sent again.
      body = req.form;
    }

    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchFn(url, {
          method: req.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          ...(req.signal ? { signal: req.signal } : {}),
        });
      } catch (error) {
        if (req.signal?.aborted) throw req.signal.reason;
        if (!req.resendable || attempt >= this.maxRetries) {
          throw new NetworkError(`${req.method} ${url} got no answer`, error);
        }
        await sleep(backoffDelay(attempt, this.backoff), req.signal);
        continue;
      }

      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      if (RETRY_STATUSES.has(res.status) && attempt < this.maxRetries) {
        // Drain the body so the connection goes back to the pool.
        await res.arrayBuffer().catch(() => undefined);
        await sleep(backoffDelay(attempt, this.backoff, retryAfterMs), req.signal);
        continue;
      }

      if (req.bytes && res.ok) {
        const data = new Uint8Array(await res.arrayBuffer()) as T;
        return { status: res.status, headers: res.headers, data };
      }
      const parsed = await readJson(res);
      if (!res.ok) {
        throw new ApiError(res.status, parsed as ErrorEnvelope | undefined, {
          requestId: res.headers.get('x-request-id') ?? undefined,
          retryAfter: retryAfterMs === undefined ? undefined : retryAfterMs / 1000,
        });
      }
      return { status: res.status, headers: res.headers, data: (parsed as { data: T }).data };
    }
  }

  private url(path: string, query?: object): string {
    const url = new URL(this.base + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML error page: the status still says what happened.
    return { status: false, message: text.slice(0, 200) };
  }
}
