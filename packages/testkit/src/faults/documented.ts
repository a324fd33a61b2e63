/**
 * Whether an answer is one the API documents (docs/operations.md and the README): success with
 * the `{ status: true }` envelope, a client error or 429 with the `{ status: false }` envelope,
 * or 503 with `Retry-After`. Everything else (500, other 5xx, no answer, a body that is not the
 * envelope) is what the load script reports.
 */
import type { Answer } from './http.ts';

const CLIENT_ERRORS = new Set([400, 401, 403, 404, 405, 409, 413, 415, 422, 429]);

export function undocumentedReason(
  answer: Answer,
  expected: readonly number[],
): string | undefined {
  if (answer.status === 0) return `no answer (${answer.error ?? 'unknown'})`;
  let body: { status?: unknown; message?: unknown };
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    return `${answer.status} with a body that is not JSON`;
  }
  if (answer.status === 503) {
    return answer.headers.get('retry-after') ? undefined : '503 without Retry-After';
  }
  if (expected.includes(answer.status)) {
    return body.status === true ? undefined : `${answer.status} without the success envelope`;
  }
  if (CLIENT_ERRORS.has(answer.status)) {
    return body.status === false && typeof body.message === 'string'
      ? undefined
      : `${answer.status} without the error envelope`;
  }
  return `${answer.status}`;
}
