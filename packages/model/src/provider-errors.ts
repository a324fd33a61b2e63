import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ExtractionFailure } from '@xt/contract';

/**
 * Turns an error from the OpenAI SDK into a failure code (docs/api.md#failure-codes). Transient trouble (429, 5xx,
 * 408, timeouts, connection faults) is retryable: the job queue tries again later. A request
 * the provider will never accept (bad request, bad key, unknown model) is not; its message
 * names the cause without quoting the key.
 */
export function providerFailure(
  error: unknown,
  redact: (text: string) => string,
): ExtractionFailure {
  if (error instanceof ExtractionFailure) return error;
  if (error instanceof APIUserAbortError) {
    return new ExtractionFailure('TIMEOUT', 'The model call was aborted before it finished.', {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return unavailable('The model provider did not answer in time.', true, error);
  }
  if (error instanceof APIConnectionError) {
    return unavailable('The model provider could not be reached.', true, error);
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    return statusFailure(error as APIError, error.status, redact);
  }
  return new ExtractionFailure('INTERNAL', 'The model call failed unexpectedly.', {
    retryable: true,
    cause: error,
  });
}

function statusFailure(
  error: APIError,
  status: number,
  redact: (text: string) => string,
): ExtractionFailure {
  const detail = providerMessage(error, redact);
  if (status === 429) {
    // an exhausted quota or billing limit does not recover by waiting minutes
    if (error.code === 'insufficient_quota') {
      return unavailable(
        `The model provider refused the request: quota exceeded${detail}`,
        false,
        error,
      );
    }
    return unavailable(
      'The model provider is rate limiting requests.',
      true,
      error,
      retryAfter(error),
    );
  }
  if (status >= 500 || status === 408 || status === 409) {
    return unavailable(
      `The model provider failed (HTTP ${status}).`,
      true,
      error,
      retryAfter(error),
    );
  }
  // no cause for 401/403: the SDK's own message quotes part of the key
  if (status === 401) {
    return unavailable(
      'The model provider rejected the API key (HTTP 401). Check OPENAI_API_KEY.',
      false,
    );
  }
  if (status === 403) {
    return unavailable(
      'The model provider denied access (HTTP 403) for this key or region.',
      false,
    );
  }
  if (status === 404) {
    return unavailable(
      `The model provider does not know the model or route (HTTP 404). Check MODEL_MAP and OPENAI_BASE_URL${detail}`,
      false,
      error,
    );
  }
  return unavailable(
    `The model provider rejected the request (HTTP ${status})${detail}`,
    false,
    error,
  );
}

function providerMessage(error: APIError, redact: (text: string) => string): string {
  const body: unknown = error.error;
  const raw =
    typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  const message = typeof raw === 'string' ? raw : '';
  return message ? `: ${redact(message).slice(0, 500)}` : '.';
}

function unavailable(
  message: string,
  retryable: boolean,
  cause?: unknown,
  retryAfterMs?: number,
): ExtractionFailure {
  return new ExtractionFailure('MODEL_UNAVAILABLE', message, {
    retryable,
    cause,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * How long the provider asked us to wait: `retry-after-ms` (OpenAI's), else `Retry-After` in
 * seconds or as an HTTP date. The SDK honours it for its own retries; the job queue's retry
 * honours it too once those are spent.
 */
export function retryAfter(error: APIError): number | undefined {
  const headers = error.headers;
  const get = (name: string): string | null | undefined =>
    headers && typeof headers.get === 'function' ? headers.get(name) : undefined;
  const ms = Number.parseFloat(get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
