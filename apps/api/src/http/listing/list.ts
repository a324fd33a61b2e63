import { parseListQuery, type ListQuery, type ListQueryOptions } from './list-query.ts';
import { validationError } from '../errors/errors.ts';

/** Query validation for every list route: a 422 naming `page`, `limit`, `startDate`, … */
export function listQueryOr422(query: unknown, options: ListQueryOptions = {}): ListQuery {
  const parsed = parseListQuery((query ?? {}) as Record<string, unknown>, options);
  if (!parsed.ok) throw validationError(parsed.errors);
  return parsed.value;
}
