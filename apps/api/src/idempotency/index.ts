import { validationError, HttpError } from '../http/errors/errors.ts';
import { requestFingerprint } from './fingerprint.ts';
import type { KeyReading } from './header.ts';
import type { IdempotencyRequest } from './store.ts';

export { readIdempotencyKey, IDEMPOTENCY_HEADER, type KeyReading } from './header.ts';
export { requestFingerprint } from './fingerprint.ts';
export { IdempotencyKeys, type IdempotencyRequest } from './store.ts';

/** Set on every answer that is a repeat of an earlier request with the same key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Runs the body validation and adds a malformed Idempotency-Key to its 422, so one answer lists
 * every problem of the request.
 */
export function withKeyCheck<T>(key: KeyReading, parse: () => T): T {
  const keyErrors = key.kind === 'malformed' ? [key.error] : [];
  const merged = (err: unknown): Error =>
    err instanceof HttpError && err.status === 422 && err.fields && keyErrors.length > 0
      ? validationError([...keyErrors, ...err.fields])
      : err instanceof Error
        ? err
        : new Error(String(err));
  let parsed: T;
  try {
    parsed = parse();
  } catch (err) {
    throw merged(err);
  }
  // A parse that reads files (an upload's format) answers later; its 422 is merged the same.
  if (parsed instanceof Promise)
    return parsed.then(
      (value: unknown) => {
        if (keyErrors.length > 0) throw validationError(keyErrors);
        return value;
      },
      (err: unknown) => Promise.reject(merged(err)),
    ) as T;
  if (keyErrors.length > 0) throw validationError(keyErrors);
  return parsed;
}

/**
 * The key and fingerprint a service claims, or undefined without a key. `fields` is the
 * validated input; `fileSha256` names an uploaded file by its digest.
 */
export function idempotencyRequest(
  key: KeyReading,
  route: string,
  fields: object,
  fileSha256?: string,
): IdempotencyRequest | undefined {
  if (key.kind !== 'key') return undefined;
  return {
    key: key.key,
    fingerprint: requestFingerprint(route, fields as Record<string, unknown>, fileSha256),
  };
}
