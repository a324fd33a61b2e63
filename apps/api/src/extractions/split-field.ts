import {
  isUuid,
  MAX_SPLIT_CLASSES,
  MAX_SPLIT_CLASS_NAME_CHARS,
  MAX_SPLIT_DESCRIPTION_CHARS,
  SPLIT_CLASS_NAME_PATTERN,
  SPLIT_OTHER_CLASS,
  type FieldError,
  type SourceType,
  type SplitClass,
  type SplitRequest,
} from '@xt/contract';

/** The kinds a bundle can be: each is read as pages (docs/split.md). */
export const SPLIT_SOURCE_TYPES: ReadonlySet<SourceType> = new Set([
  'pdf',
  'document',
  'image',
  'auto',
]);

const chars = (s: string): number => [...s].length;

function classOf(raw: unknown, at: string, errors: FieldError[]): SplitClass | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push({ field: at, message: `${at} must be an object with a name` });
    return undefined;
  }
  const { name, description, schema_id: schemaId, ...rest } = raw as Record<string, unknown>;
  const before = errors.length;
  for (const key of Object.keys(rest))
    errors.push({
      field: `${at}.${key}`,
      message: `${at} takes only name, description and schema_id`,
    });
  const nameField = `${at}.name`;
  if (typeof name !== 'string' || name.trim() === '')
    errors.push({ field: nameField, message: `${nameField} is required: a non-empty string` });
  else if (chars(name.trim()) > MAX_SPLIT_CLASS_NAME_CHARS)
    errors.push({
      field: nameField,
      message: `${nameField} must be at most ${MAX_SPLIT_CLASS_NAME_CHARS} characters`,
    });
  else if (!SPLIT_CLASS_NAME_PATTERN.test(name.trim()))
    errors.push({
      field: nameField,
      message: `${nameField} may hold only letters, digits, _, - and spaces`,
    });
  else if (name.trim().toLowerCase() === SPLIT_OTHER_CLASS)
    errors.push({
      field: nameField,
      message: `${nameField} must not be "${SPLIT_OTHER_CLASS}": it is reserved for pages of no class (split.other)`,
    });
  if (description !== undefined && description !== null) {
    if (typeof description !== 'string')
      errors.push({ field: `${at}.description`, message: `${at}.description must be a string` });
    else if (chars(description) > MAX_SPLIT_DESCRIPTION_CHARS)
      errors.push({
        field: `${at}.description`,
        message: `${at}.description must be at most ${MAX_SPLIT_DESCRIPTION_CHARS} characters`,
      });
  }
  if (schemaId !== undefined && schemaId !== null)
    if (typeof schemaId !== 'string' || !isUuid(schemaId.trim()))
      errors.push({ field: `${at}.schema_id`, message: `${at}.schema_id must be a UUID` });
  if (errors.length > before) return undefined;
  const trimmedDescription = typeof description === 'string' ? description.trim() : '';
  return {
    name: (name as string).trim(),
    ...(trimmedDescription ? { description: trimmedDescription } : {}),
    ...(typeof schemaId === 'string' ? { schema_id: schemaId.trim().toLowerCase() } : {}),
  };
}

/**
 * Checks `split` as submitted (docs/split.md): JSON bodies carry an object, multipart and
 * urlencoded bodies a JSON string. Absent, `null` and an empty form value mean no split. Each
 * problem names its field (`split.classes[2].name`). Whether each class's schema exists is the
 * create's to check, in the transaction that snapshots it.
 */
export function parseSplit(
  raw: unknown,
  fromForm: boolean,
): { split?: SplitRequest; errors: FieldError[] } {
  if (raw === undefined || raw === null) return { errors: [] };
  const whole = (message: string) => ({ errors: [{ field: 'split', message }] });
  let value: unknown = raw;
  if (typeof raw === 'string' && fromForm) {
    if (raw.trim() === '') return { errors: [] };
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return whole('split must be a JSON object: {"classes": [{"name": …}], "other": true}');
    }
  } else if (Array.isArray(raw) && fromForm) {
    return whole('split must be given once');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return whole('split must be an object: {"classes": [{"name": …}], "other": true}');
  const { classes, other, ...rest } = value as Record<string, unknown>;
  const errors: FieldError[] = Object.keys(rest).map((key) => ({
    field: `split.${key}`,
    message: 'split takes only classes and other',
  }));
  if (other !== undefined && typeof other !== 'boolean')
    errors.push({ field: 'split.other', message: 'split.other must be true or false' });
  if (!Array.isArray(classes) || classes.length === 0 || classes.length > MAX_SPLIT_CLASSES) {
    errors.push({
      field: 'split.classes',
      message: `split.classes must be a list of 1 to ${MAX_SPLIT_CLASSES} classes`,
    });
    return { errors };
  }
  const parsed = classes.map((c, i) => classOf(c, `split.classes[${i}]`, errors));
  const seen = new Map<string, number>();
  parsed.forEach((c, i) => {
    if (!c) return;
    const key = c.name.toLowerCase();
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else
      errors.push({
        field: `split.classes[${i}].name`,
        message: `split.classes[${i}].name repeats split.classes[${first}].name (names are compared ignoring case)`,
      });
  });
  if (errors.length > 0) return { errors };
  return {
    split: { classes: parsed.filter((c) => c !== undefined), other: other !== false },
    errors,
  };
}

/**
 * What a create with `split` must not also carry: a top-level `schema_id` (each class names
 * its own), a kind that is not read as pages, batch priority (the classification must finish
 * before any child exists, so the bundle would wait a batch round before its children could
 * even start).
 */
export function splitConflicts(
  body: Record<string, unknown>,
  type: SourceType | undefined,
): FieldError[] {
  const errors: FieldError[] = [];
  if (body.schema_id !== undefined && body.schema_id !== null && body.schema_id !== '')
    errors.push({
      field: 'schema_id',
      message:
        'schema_id must be absent with split: a split names the schema of each class (split.classes[].schema_id)',
    });
  if (type && !SPLIT_SOURCE_TYPES.has(type))
    errors.push({
      field: 'split',
      message: `split takes a source read as pages: type must be one of ${[...SPLIT_SOURCE_TYPES].join(', ')}, not ${type}`,
    });
  if (body.priority === 'batch')
    errors.push({
      field: 'split',
      message:
        'split cannot have priority batch: the bundle must be classified before its documents exist, so it would wait a whole batch round first; send priority standard',
    });
  return errors;
}
