import type { FieldError } from '@xt/contract';

export const MAX_METADATA_KEYS = 16;
export const MAX_METADATA_KEY_CHARS = 40;
export const MAX_METADATA_VALUE_CHARS = 500;

/** The client's own labels for an extraction: stored and returned, never shown to the model. */
export type Metadata = Record<string, string>;

/** Characters as people count them (code points), so an emoji is one, not two. */
const chars = (s: string): number => [...s].length;

/**
 * PostgreSQL's jsonb cannot hold U+0000 or a lone surrogate: refusing them here keeps a label
 * from turning into a database error.
 */
function storable(s: string): boolean {
  return s.isWellFormed() && !s.includes('\u0000');
}

function keyProblem(key: string): string | null {
  if (key.length === 0) return 'metadata keys must not be empty';
  if (chars(key) > MAX_METADATA_KEY_CHARS)
    return `metadata keys must be at most ${MAX_METADATA_KEY_CHARS} characters long`;
  if (!storable(key)) return 'metadata keys must be valid Unicode without NUL characters';
  return null;
}

function valueProblem(field: string, value: unknown): string | null {
  if (typeof value !== 'string') return `${field} must be a string`;
  if (chars(value) > MAX_METADATA_VALUE_CHARS)
    return `${field} must be at most ${MAX_METADATA_VALUE_CHARS} characters long`;
  if (!storable(value)) return `${field} must be valid Unicode without NUL characters`;
  return null;
}

/**
 * Checks `metadata` as submitted. JSON bodies carry an object; multipart and urlencoded bodies
 * carry it as a JSON string (`fromForm`). Absent, `null` and an empty form value mean none.
 * Problems are reported per key (`metadata.<key>`), or on `metadata` as a whole.
 */
export function parseMetadata(
  raw: unknown,
  fromForm: boolean,
): { metadata: Metadata; errors: FieldError[] } {
  const none = { metadata: {}, errors: [] };
  if (raw === undefined || raw === null) return none;
  const whole = (message: string) => ({ metadata: {}, errors: [{ field: 'metadata', message }] });
  let value: unknown = raw;
  if (typeof raw === 'string' && fromForm) {
    if (raw.trim() === '') return none;
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return whole('metadata must be a JSON object of string values');
    }
  } else if (Array.isArray(raw) && fromForm) {
    return whole('metadata must be given once');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return whole('metadata must be an object of string values');

  const entries = Object.entries(value as Record<string, unknown>);
  const errors: FieldError[] = [];
  if (entries.length > MAX_METADATA_KEYS)
    errors.push({
      field: 'metadata',
      message: `metadata must have at most ${MAX_METADATA_KEYS} keys`,
    });
  const metadata: Metadata = {};
  for (const [key, v] of entries) {
    const field = `metadata.${key}`;
    const problem = keyProblem(key) ?? valueProblem(field, v);
    if (problem) errors.push({ field, message: problem });
    else Object.defineProperty(metadata, key, { value: v, enumerable: true, writable: true });
  }
  return errors.length > 0 ? { metadata: {}, errors } : { metadata, errors };
}
