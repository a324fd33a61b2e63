import { ExtractionFailure } from '@xt/contract';

/** Network faults another attempt may get past. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The first ExtractionFailure in an error's cause chain (undici may wrap connector errors). */
function findFailure(err: unknown): ExtractionFailure | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof ExtractionFailure) return current;
    current = current.cause;
  }
  return undefined;
}

/**
 * Turns whatever undici or the socket layer threw into a contract failure. TLS certificate
 * problems and unknown protocol errors are not retryable: the same server will answer the same.
 */
export function toFetchFailure(err: unknown, url: string): ExtractionFailure {
  const known = findFailure(err);
  if (known) return known;
  const code = errorCode(err) ?? errorCode((err as { cause?: unknown } | null)?.cause);
  const detail = err instanceof Error ? err.message : String(err);
  if (code === 'ENOTFOUND') {
    return new ExtractionFailure('SOURCE_UNREACHABLE', `The host of ${url} does not exist.`, {
      cause: err,
    });
  }
  const retryable = code !== undefined && TRANSIENT_CODES.has(code);
  return new ExtractionFailure(
    'SOURCE_UNREACHABLE',
    `Could not fetch ${url}: ${code ? `${code} ` : ''}${detail}`,
    { retryable, cause: err },
  );
}

/** Maps a final non-2xx answer from the source (docs/api.md#failure-codes: 429 and 5xx are retryable). */
export function statusFailure(status: number, url: string): ExtractionFailure {
  if (status === 401 || status === 403) {
    return new ExtractionFailure(
      'SOURCE_FORBIDDEN',
      `The source refused access (HTTP ${status}) at ${url}.`,
    );
  }
  const retryable = status === 408 || status === 429 || status >= 500;
  return new ExtractionFailure(
    'SOURCE_UNREACHABLE',
    `The source answered HTTP ${status} at ${url}.`,
    {
      retryable,
    },
  );
}
