import { isUuid } from '@xt/contract';
import { UnknownSchema } from '@xt/extractions';
import { HttpError, validationError } from '../http/errors/errors.ts';

/**
 * A create whose schema_id names no schema is refused by the insert itself (one statement, no
 * lookup first), so a body refused for its other fields never got that far and the 422 left
 * schema_id out. On that path only the schema is looked up, so one answer names every problem.
 */
export async function namingUnknownSchema<T>(
  parse: Promise<T>,
  body: unknown,
  schemaExists: (schemaId: string) => Promise<boolean>,
): Promise<T> {
  try {
    return await parse;
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 422 || !err.fields) throw err;
    if (err.fields.some((f) => f.field === 'schema_id')) throw err;
    const given = (body as { schema_id?: unknown } | null)?.schema_id;
    const id = typeof given === 'string' ? given.trim() : '';
    if (!isUuid(id) || (await schemaExists(id.toLowerCase()))) throw err;
    const unknown = new UnknownSchema();
    throw validationError([...err.fields, { field: unknown.field, message: unknown.message }]);
  }
}
