import type { FieldError } from '@xt/contract';

/**
 * An error with an HTTP meaning. Services throw these; the API's one error middleware turns
 * them into the envelope. `code` is the stable UPPER_SNAKE machine-readable string (docs/api.md#envelope-and-status-codes).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: {
      fields?: FieldError[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
    this.extra = options.extra;
  }
}

export function validationError(fields: FieldError[]): HttpError {
  return new HttpError(422, 'VALIDATION_FAILED', 'The request is invalid.', { fields });
}

export function notFound(what: string): HttpError {
  return new HttpError(404, 'NOT_FOUND', `${what} not found.`);
}
