import type { z } from 'zod';
import { HttpError, readableErrorMap, validationError, zodIssuesToFieldErrors } from '@xt/contract';

/** Parses with a zod schema; a failure becomes a 422 naming every invalid field. */
export function parseOr422<S extends z.ZodType>(
  schema: S,
  value: unknown,
  root?: string,
): z.infer<S> {
  const result = schema.safeParse(value, { error: readableErrorMap });
  if (!result.success) throw validationError(zodIssuesToFieldErrors(result.error.issues, root));
  return result.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids that are not UUIDs cannot name anything: answer as if absent (404), not 422. */
export function idParam(value: unknown, what: string): string {
  if (typeof value !== 'string' || !UUID.test(value))
    throw new HttpError(404, 'NOT_FOUND', `${what} not found.`);
  return value.toLowerCase();
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
