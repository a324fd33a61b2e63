import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ExtractionFailure } from '@xt/contract';

/**
 * Turns an error from the OpenAI SDK into the contract's failure. Transient trouble (429, 5xx,
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
    return unavailable('The model provider is rate limiting requests.', true, error);
  }
  if (status >= 500 || status === 408 || status === 409) {
    return unavailable(`The model provider failed (HTTP ${status}).`, true, error);
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

function unavailable(message: string, retryable: boolean, cause?: unknown): ExtractionFailure {
  return new ExtractionFailure('MODEL_UNAVAILABLE', message, { retryable, cause });
}
