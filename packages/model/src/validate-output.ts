import type { FieldDefinition, FieldError, Structure } from '@xt/contract';
import { isRequired, lengthBound } from './field-rules.ts';

/** Output problems are reported with JSONPath-style paths rooted at `$`: `$.lines[0].amount`. */
export const ROOT_PATH = '$';

/**
 * Every way `value` breaks the structure: wrong types, required values missing or null,
 * lengths, enums, keys the structure does not define. Empty when the value conforms. The root
 * is always required; array elements must not be null (see json-schema.ts).
 */
export function validateOutput(structure: Structure, value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  checkValue(structure, value, ROOT_PATH, true, errors);
  return errors;
}

function checkValue(
  field: FieldDefinition,
  value: unknown,
  path: string,
  required: boolean,
  errors: FieldError[],
): void {
  if (value === null || value === undefined) {
    if (required) errors.push({ field: path, message: 'is required and must not be null' });
    return;
  }
  switch (field.type) {
    case 'object':
      checkObject(field, value, path, errors);
      return;
    case 'array':
      if (!Array.isArray(value)) {
        errors.push({ field: path, message: `must be an array, got ${describeType(value)}` });
        return;
      }
      if (field.items) {
        const items = field.items;
        value.forEach((element, i) => checkValue(items, element, `${path}[${i}]`, true, errors));
      }
      return;
    case 'string':
      checkString(field, value, path, errors);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        errors.push({ field: path, message: `must be a number, got ${describeType(value)}` });
      }
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        errors.push({ field: path, message: `must be an integer, got ${describeValue(value)}` });
      }
      return;
    case 'boolean':
      if (typeof value !== 'boolean') {
        errors.push({ field: path, message: `must be a boolean, got ${describeType(value)}` });
      }
      return;
  }
}

function checkObject(
  field: FieldDefinition,
  value: unknown,
  path: string,
  errors: FieldError[],
): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push({ field: path, message: `must be an object, got ${describeType(value)}` });
    return;
  }
  const record = value as Record<string, unknown>;
  const properties = field.properties ?? {};
  for (const [name, child] of Object.entries(properties)) {
    checkValue(child, record[name], `${path}.${name}`, isRequired(child), errors);
  }
  for (const name of Object.keys(record)) {
    if (!Object.hasOwn(properties, name)) {
      errors.push({ field: `${path}.${name}`, message: 'is not defined in the structure' });
    }
  }
}

function checkString(
  field: FieldDefinition,
  value: unknown,
  path: string,
  errors: FieldError[],
): void {
  if (typeof value !== 'string') {
    errors.push({ field: path, message: `must be a string, got ${describeType(value)}` });
    return;
  }
  // Counted in code points, as people count characters, not UTF-16 units.
  const length = [...value].length;
  const min = lengthBound(field.minLength);
  const max = lengthBound(field.maxLength);
  if (min !== undefined && length < min) {
    errors.push({ field: path, message: `must be at least ${min} characters, got ${length}` });
  }
  if (max !== undefined && length > max) {
    errors.push({ field: path, message: `must be at most ${max} characters, got ${length}` });
  }
  if (field.enum && !field.enum.includes(value)) {
    errors.push({
      field: path,
      message: `must be one of ${field.enum.map((v) => JSON.stringify(v)).join(', ')}`,
    });
  }
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function describeValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeType(value);
}
