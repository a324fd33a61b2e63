/**
 * Text the service can store and show faithfully (docs/input-normalisation.md). PostgreSQL
 * refuses U+0000 in text, and a lone UTF-16 surrogate has no UTF-8 form (it would be replaced
 * silently on the way to the database). Both are refused with a 422 on the field, the same way
 * in every field of every body and in `search`, rather than changed behind the client's back.
 */
import type { FieldError } from '@xt/contract';
import { formatIssuePath } from '../errors/zod-errors.ts';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored as it is, or null when it can. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (it contains a lone surrogate)';
  return null;
}

/**
 * Every string (and object key) in a parsed body that cannot be stored, one entry per field,
 * with the field named as in every other 422 (`structure.properties.total.describe`).
 */
export function unstorableText(
  value: unknown,
  path: (string | number)[] = [],
  out: FieldError[] = [],
): FieldError[] {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    if (problem)
      out.push({
        field: formatIssuePath(path) || 'body',
        message: `${formatIssuePath(path) || 'body'} ${problem}`,
      });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => unstorableText(item, [...path, i], out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const problem = textProblem(key);
      if (problem) {
        const field = formatIssuePath(path) || 'body';
        out.push({ field, message: `${field} has a key that ${problem}` });
        continue;
      }
      unstorableText(item, [...path, key], out);
    }
  }
  return out;
}
