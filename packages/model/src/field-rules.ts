import type { FieldDefinition } from '@xt/contract';

/** `minLength`/`maxLength` arrive as a number or as numeric text ("3"); both mean the same. */
export function lengthBound(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : Number(value.trim());
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** The human guidance for a field: `describe` wins, `description` is the creation-guide twin. */
export function fieldDescription(field: FieldDefinition): string | undefined {
  const describe = field.describe?.trim();
  const description = field.description?.trim();
  if (describe && description && describe !== description) return `${describe} ${description}`;
  return describe || description || undefined;
}

/**
 * The length rule in words. Strict Structured Outputs rejects `minLength`/`maxLength`, so the
 * model learns the rule from the description and `validateOutput` enforces it.
 */
export function lengthHint(field: FieldDefinition): string | undefined {
  const min = lengthBound(field.minLength);
  const max = lengthBound(field.maxLength);
  if (min !== undefined && max !== undefined) {
    return min === max
      ? `Length: exactly ${min} characters.`
      : `Length: between ${min} and ${max} characters.`;
  }
  if (min !== undefined) return `Length: at least ${min} characters.`;
  if (max !== undefined) return `Length: at most ${max} characters.`;
  return undefined;
}

/** `required: true` means present and not null (docs/api.md#required-and-optional-fields); anything else may be null. */
export function isRequired(field: FieldDefinition): boolean {
  return field.required === true;
}
