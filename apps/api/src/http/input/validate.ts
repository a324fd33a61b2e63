import type { z } from 'zod';
import { isUuid, type FieldError } from '@xt/contract';
import { HttpError, validationError } from '../errors/errors.ts';
import { readableErrorMap, zodIssuesToFieldErrors } from '../errors/zod-errors.ts';

/**
 * Checks `value` with a zod schema and hands back either the data or one entry per invalid
 * field, so a route can add its own checks and answer every problem in a single 422.
 */
export function checkFields<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { data: z.infer<S> | undefined; errors: FieldError[] } {
  const result = schema.safeParse(value, { error: readableErrorMap });
  return result.success
    ? { data: result.data, errors: [] }
    : { data: undefined, errors: zodIssuesToFieldErrors(result.error.issues) };
}

/** `checkFields` as the parse of `parseBodyObject`: the data, or a 422 naming every invalid field. */
export function fieldsOf<S extends z.ZodType>(schema: S): (value: unknown) => z.infer<S> {
  return (value) => {
    const { data, errors } = checkFields(schema, value);
    if (errors.length > 0) throw validationError(errors);
    return data as z.infer<S>;
  };
}

/** Path ids that are not UUIDs cannot name anything: answer as if absent (404), not 422. */
export function idParam(value: unknown, what: string): string {
  if (typeof value !== 'string' || !isUuid(value))
    throw new HttpError(404, 'NOT_FOUND', `${what} not found.`);
  return value.toLowerCase();
}
