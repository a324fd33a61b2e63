import type { FailureCode, FieldError } from './types.ts';

/** Base of everything the SDK throws on purpose, so callers can catch the SDK's errors at once. */
export class XtError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'XtError';
  }
}

/** The body of an error answer (docs/api.md#envelope-and-status-codes). */
export interface ErrorEnvelope {
  status: false;
  message?: string;
  code?: string;
  errors?: FieldError[];
  extractionId?: string;
}

/**
 * One 422 entry as a sentence. The service's messages name their field already ("source is not
 * a spreadsheet"), so prefixing the field again read "source source is not..."; a message that
 * does not start with its field still gets it, so no problem loses where it was.
 */
export function fieldProblem(e: FieldError): string {
  return e.message.startsWith(e.field) ? e.message : `${e.field}: ${e.message}`;
}

/** The service answered with an error status; carries its envelope. */
export class ApiError extends XtError {
  /** The HTTP status. */
  readonly status: number;
  /** The stable UPPER_SNAKE code of the envelope, e.g. `VALIDATION_FAILED`, `NOT_FOUND`. */
  readonly code: string;
  /** One entry per problem on a 422, naming the request field. */
  readonly errors: FieldError[];
  /** Set when a synchronous create ended in a failed extraction. */
  readonly extractionId: string | undefined;
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (429, 503, 202), when it said. */
  readonly retryAfter: number | undefined;
  readonly body: ErrorEnvelope | undefined;

  constructor(
    status: number,
    body: ErrorEnvelope | undefined,
    meta: { requestId?: string | undefined; retryAfter?: number | undefined } = {},
  ) {
    const fields = body?.errors ?? [];
    const detail = fields.length ? `: ${fields.map(fieldProblem).join('; ')}` : '';
    super(`${status} ${body?.message ?? 'request failed'}${detail}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body?.code ?? `HTTP_${status}`;
    this.errors = fields;
    this.extractionId = body?.extractionId;
    this.requestId = meta.requestId;
    this.retryAfter = meta.retryAfter;
    this.body = body;
  }

  /** The field names of a 422, e.g. `['schema_id', 'structure.properties.total.type']`. */
  get fields(): string[] {
    return this.errors.map((e) => e.field);
  }
}

/**
 * The extraction reached `failed`: either the synchronous create said so (422 on `source`, 502
 * or 500 with an `extractionId`) or polling found it. `failureCode` is the record's error code.
 */
export class ExtractionFailedError extends XtError {
  readonly extractionId: string;
  readonly failureCode: FailureCode;
  /** The HTTP error of the synchronous answer, when that is how the failure was learnt. */
  readonly apiError: ApiError | undefined;

  constructor(
    extractionId: string,
    failureCode: FailureCode,
    message: string,
    apiError?: ApiError,
  ) {
    super(`extraction ${extractionId} failed (${failureCode}): ${message}`, { cause: apiError });
    this.name = 'ExtractionFailedError';
    this.extractionId = extractionId;
    this.failureCode = failureCode;
    this.apiError = apiError;
  }
}

/** The request never got an answer (connection refused or reset, DNS), after all retries. */
export class NetworkError extends XtError {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'NetworkError';
  }
}

/** A webhook request whose signature, headers or timestamp do not check out. */
export class WebhookVerificationError extends XtError {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}
