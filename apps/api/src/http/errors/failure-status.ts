import type { FailureCode } from '@xt/contract';

/** Failures caused by the submitted source: the client must change its input (422 on `source`). */
export const SOURCE_FAILURES: ReadonlySet<FailureCode> = new Set([
  'SOURCE_UNREACHABLE',
  'SOURCE_FORBIDDEN',
  'SOURCE_TOO_LARGE',
  'SOURCE_UNSUPPORTED',
  'SOURCE_UNREADABLE',
]);

/** HTTP status a synchronous create answers with when the extraction ended in this failure. */
export function failureHttpStatus(code: FailureCode): number {
  if (SOURCE_FAILURES.has(code)) return 422;
  if (
    code === 'MODEL_UNAVAILABLE' ||
    code === 'MODEL_REFUSED' ||
    code === 'MODEL_CONTEXT_TOO_SMALL' ||
    code === 'OUTPUT_INVALID'
  )
    return 502;
  // docs/api.md#failure-codes: everything else, TIMEOUT included, is a 500.
  return 500;
}
