/**
 * Turns zod issues into the 422 `errors` entries (docs/api.md#envelope-and-status-codes): one `{ field, message }`
 * per invalid field, field paths with dots for nesting and brackets for array positions, and
 * messages a developer can act on without knowing zod.
 */
import type { z } from 'zod';
import type { FieldError } from '@xt/contract';

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

/** `['input', 'lines', 2, 'total']` → `input.lines[2].total`; `root` is prepended as a segment. */
export function formatIssuePath(path: readonly PropertyKey[], root?: string): string {
  let out = root ?? '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** The standard wording for an absent mandatory field, e.g. `schema_id is required`. */
export function requiredMessage(field: string): string {
  return `${field} is required`;
}

// Zod's own wording for a missing key, used when a schema was parsed without our error map.
const ZOD_MISSING = /^Invalid input: expected .+, received undefined$/;

/**
 * One entry per field (the first message for each field wins), in the order zod reported them.
 * An `unrecognized_keys` issue (strict objects) becomes one entry per unknown key.
 */
export function zodIssuesToFieldErrors(issues: readonly Issue[], root?: string): FieldError[] {
  const byField = new Map<string, string>();
  const add = (field: string, message: string): void => {
    if (!byField.has(field)) byField.set(field, message);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        add(formatIssuePath([...issue.path, key], root), `Unknown field "${key}".`);
      }
      continue;
    }
    const field = formatIssuePath(issue.path, root);
    const message =
      issue.code === 'invalid_type' && ZOD_MISSING.test(issue.message)
        ? requiredMessage(field || 'value')
        : issue.message;
    add(field, message);
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  date: 'a date',
  null: 'null',
};

function describeValues(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

function lengthMessage(
  name: string,
  origin: string,
  bound: number | bigint,
  inclusive: boolean | undefined,
  side: 'min' | 'max',
): string | undefined {
  const n = Number(bound);
  if (origin === 'string') {
    if (side === 'min' && n === 1) return `${name} must not be empty`;
    const limit = side === 'min' ? 'at least' : 'at most';
    return `${name} must be ${limit} ${n} character${n === 1 ? '' : 's'} long`;
  }
  if (origin === 'array') {
    if (side === 'min' && n === 1) return `${name} must not be empty`;
    const limit = side === 'min' ? 'at least' : 'at most';
    return `${name} must have ${limit} ${n} item${n === 1 ? '' : 's'}`;
  }
  if (origin === 'number' || origin === 'int') {
    if (side === 'min') return `${name} must be ${inclusive ? 'at least' : 'greater than'} ${n}`;
    return `${name} must be ${inclusive ? 'at most' : 'less than'} ${n}`;
  }
  return undefined;
}

/**
 * A zod error map with plain-English messages naming the field, for
 * `schema.safeParse(input, { error: readableErrorMap })`. Returns undefined (zod's default) for
 * issues it has no better words for; messages set explicitly on a schema take precedence.
 */
export const readableErrorMap: z.core.$ZodErrorMap = (issue: RawIssue) => {
  const name = formatIssuePath(issue.path ?? []) || 'value';
  // An absent key reaches the map as a type or option mismatch on `undefined`.
  const absent = issue.input === undefined && (issue.path?.length ?? 0) > 0;
  switch (issue.code) {
    case 'invalid_type': {
      if (absent) return requiredMessage(name);
      const word = TYPE_WORDS[issue.expected];
      return word ? `${name} must be ${word}` : undefined;
    }
    case 'too_small':
      return lengthMessage(name, issue.origin, issue.minimum, issue.inclusive, 'min');
    case 'too_big':
      return lengthMessage(name, issue.origin, issue.maximum, issue.inclusive, 'max');
    case 'invalid_value':
      if (absent) return requiredMessage(name);
      return issue.values.length === 1
        ? `${name} must be ${describeValues(issue.values)}`
        : `${name} must be one of: ${describeValues(issue.values)}`;
    case 'invalid_format':
      if (issue.format === 'uuid' || issue.format === 'guid') return `${name} must be a UUID`;
      if (issue.format === 'url') return `${name} must be a valid URL`;
      if (issue.format === 'email') return `${name} must be a valid email address`;
      return `${name} is not in the expected format`;
    default:
      return undefined;
  }
};
