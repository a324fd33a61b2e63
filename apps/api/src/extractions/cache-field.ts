import type { FieldError } from '@xt/contract';

/** Largest `maxAge` a request may ask for: the column is a 32-bit integer of seconds. */
export const MAX_CACHE_MAX_AGE = 2_147_483_647;

/**
 * What the request said about reuse (docs/reuse.md): nothing (the service's default age),
 * `false` (reuse nothing for this request), or the oldest answer it accepts, in seconds.
 */
export type CacheRequest = { maxAge: number } | false | undefined;

const MAX_AGE_MESSAGE = `must be a whole number of seconds from 0 to ${MAX_CACHE_MAX_AGE}`;

/** A form's value is text; a JSON body's must be a number. */
function maxAgeOf(raw: unknown, field: string): { value?: number; errors: FieldError[] } {
  const text = field === 'cache_max_age' && typeof raw === 'string';
  const n = text && /^\d{1,10}$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_CACHE_MAX_AGE)
    return { value: n, errors: [] };
  return { errors: [{ field, message: `${field} ${MAX_AGE_MESSAGE}` }] };
}

/**
 * `cache` in a JSON body: absent, `true` (the default), `false`, or `{ "maxAge": <seconds> }`.
 * Anything else is refused rather than guessed at.
 */
function fromJson(raw: unknown): { cache: CacheRequest; errors: FieldError[] } {
  if (raw === undefined || raw === true) return { cache: undefined, errors: [] };
  if (raw === false) return { cache: false, errors: [] };
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const fields = raw as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((k) => k !== 'maxAge');
    if (unknown.length > 0)
      return {
        cache: undefined,
        errors: [{ field: `cache.${unknown[0]}`, message: 'cache takes only maxAge' }],
      };
    if (fields.maxAge === undefined) return { cache: undefined, errors: [] };
    const { value, errors } = maxAgeOf(fields.maxAge, 'cache.maxAge');
    return { cache: value === undefined ? undefined : { maxAge: value }, errors };
  }
  return {
    cache: undefined,
    errors: [
      { field: 'cache', message: 'cache must be false or an object { "maxAge": <seconds> }' },
    ],
  };
}

/**
 * `cache=false` / `cache=true` and `cache_max_age=<seconds>` in multipart and urlencoded
 * bodies. `cache=false` beside a maximum age contradicts itself and is refused.
 */
function fromForm(raw: unknown, rawMaxAge: unknown): { cache: CacheRequest; errors: FieldError[] } {
  const errors: FieldError[] = [];
  let off = false;
  if (raw !== undefined) {
    if (raw === 'false') off = true;
    else if (raw !== 'true')
      errors.push({
        field: 'cache',
        message: Array.isArray(raw)
          ? 'cache must be given once'
          : 'cache must be "true" or "false"',
      });
  }
  if (rawMaxAge === undefined || rawMaxAge === '')
    return { cache: off ? false : undefined, errors };
  if (off) {
    errors.push({
      field: 'cache_max_age',
      message: 'cache_max_age cannot be given with cache=false',
    });
    return { cache: false, errors };
  }
  if (Array.isArray(rawMaxAge)) {
    errors.push({ field: 'cache_max_age', message: 'cache_max_age must be given once' });
    return { cache: undefined, errors };
  }
  const maxAge = maxAgeOf(rawMaxAge, 'cache_max_age');
  errors.push(...maxAge.errors);
  return { cache: maxAge.value === undefined ? undefined : { maxAge: maxAge.value }, errors };
}

/** The request's reuse setting, from whichever body carried it. */
export function parseCache(
  body: Record<string, unknown>,
  fromFormBody: boolean,
): { cache: CacheRequest; errors: FieldError[] } {
  return fromFormBody ? fromForm(body.cache, body.cache_max_age) : fromJson(body.cache);
}
