/**
 * Validation of a schema's `structure` (docs/api.md#structure-rules). Every breach becomes
 * one `{ field, message }` entry with its path (dots for nesting, brackets for array positions)
 * rooted at the request field, so a client can fix all problems in one round trip.
 */
import { Buffer } from 'node:buffer';
import type { FieldError } from './errors.ts';
import { closestName } from './spelling.ts';
import type { FieldType, Structure } from './structure-types.ts';

export const FIELD_TYPES: readonly FieldType[] = [
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
];

export const FIELD_ATTRIBUTES = [
  'type',
  'describe',
  'description',
  'required',
  'minLength',
  'maxLength',
  'enum',
  'properties',
  'items',
] as const;

export const STRUCTURE_LIMITS = {
  /** Levels of `properties`/`items` below the root; the root's own fields are level 1. */
  maxDepth: 10,
  /** Field definitions below the root: every `properties` entry and every `items`. */
  maxFields: 500,
  /** UTF-8 bytes of the structure serialised as JSON. */
  maxBytes: 64 * 1024,
  maxNameLength: 64,
} as const;

const ROOT_TYPES: readonly FieldType[] = ['object', 'array'];
/**
 * Letters and digits of any script (a Japanese invoice's `取引先`, a German `Straße`), their
 * combining marks (Devanagari and Thai letters need them), `_` and `-`. Whitespace and
 * punctuation stay out: a name is also a JSON pointer segment and a path in error messages.
 */
export const FIELD_NAME = new RegExp(
  `^[\\p{L}\\p{M}\\p{N}_-]{1,${STRUCTURE_LIMITS.maxNameLength}}$`,
  'u',
);
const ALLOWED_LIST = FIELD_ATTRIBUTES.join(', ');

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);
}

function quoteList(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

/**
 * The value of `minLength`/`maxLength` as a number: a non-negative integer given as a number
 * or as numeric text (`3` or `"3"`; the structure is stored verbatim, so "3" stays "3").
 * Undefined when the value is neither.
 */
export function parseLengthAttribute(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/**
 * Field definitions below the root (each `properties` entry and each `items`), whatever their
 * validity. Iterative, so a hostile, very deep value cannot overflow the stack.
 */
export function countFields(structure: unknown): number {
  let count = 0;
  const pending: unknown[] = [structure];
  while (pending.length > 0) {
    const def = pending.pop();
    if (!isObject(def)) continue;
    if (isObject(def.properties)) {
      for (const child of Object.values(def.properties)) {
        count += 1;
        pending.push(child);
      }
    }
    if (def.items !== undefined) {
      count += 1;
      pending.push(def.items);
    }
  }
  return count;
}

function unknownAttributeMessage(key: string): string {
  const guess = closestName(key, FIELD_ATTRIBUTES);
  const hint = guess ? ` Did you mean "${guess}"?` : '';
  return `Unknown attribute "${key}".${hint} Allowed attributes: ${ALLOWED_LIST}.`;
}

/** Where a definition sits, which changes what it may be. */
type Position = 'root' | 'root-items' | 'field';

class StructureValidator {
  readonly errors: FieldError[] = [];

  private add(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  /** A definition under `properties` or `items`, `depth` levels below the root. */
  child(value: unknown, path: string, depth: number, position: Position): void {
    if (depth > STRUCTURE_LIMITS.maxDepth) {
      // Nothing below is checked: the branch is already wrong and must stay cheap.
      this.add(
        path,
        `Nesting is too deep: at most ${STRUCTURE_LIMITS.maxDepth} levels are allowed.`,
      );
      return;
    }
    if (!isObject(value)) {
      this.add(path, 'Must be a field definition object, for example { "type": "string" }.');
      return;
    }
    this.definition(value, path, depth, position);
  }

  definition(def: Json, path: string, depth: number, position: Position): void {
    for (const key of Object.keys(def)) {
      if (!(FIELD_ATTRIBUTES as readonly string[]).includes(key)) {
        this.add(`${path}.${key}`, unknownAttributeMessage(key));
      }
    }
    const type = this.type(def, path, position);
    this.text(def, path, 'describe');
    this.text(def, path, 'description');
    if (def.required !== undefined && typeof def.required !== 'boolean') {
      this.add(`${path}.required`, 'required must be a boolean (true or false).');
    }
    this.lengths(def, path, type);
    this.enumeration(def, path, type);
    this.properties(def, path, depth, type);
    this.items(def, path, depth, type, position);
  }

  /** The definition's type when it is usable for the type-specific checks, else undefined. */
  private type(def: Json, path: string, position: Position): FieldType | undefined {
    const field = `${path}.type`;
    const allowed = position === 'field' ? FIELD_TYPES : ROOT_TYPES;
    const where =
      position === 'root'
        ? 'The root type'
        : position === 'root-items'
          ? 'The type of the items of a root array'
          : 'type';
    if (def.type === undefined) {
      this.add(field, `type is required: one of ${quoteList(allowed)}.`);
      return undefined;
    }
    if (!isFieldType(def.type)) {
      this.add(field, `${where} must be one of ${quoteList(allowed)}.`);
      return undefined;
    }
    if (!allowed.includes(def.type)) {
      this.add(field, `${where} must be one of ${quoteList(allowed)}, not "${def.type}".`);
      return undefined;
    }
    return def.type;
  }

  private text(def: Json, path: string, key: 'describe' | 'description'): void {
    if (def[key] !== undefined && typeof def[key] !== 'string') {
      this.add(`${path}.${key}`, `${key} must be a string.`);
    }
  }

  private onlyFor(
    def: Json,
    path: string,
    key: string,
    type: FieldType | undefined,
    owner: FieldType,
  ): boolean {
    if (def[key] === undefined) return false;
    if (type !== undefined && type !== owner) {
      this.add(
        `${path}.${key}`,
        `${key} is only allowed on fields of type "${owner}", not "${type}".`,
      );
      return false;
    }
    return true;
  }

  private lengths(def: Json, path: string, type: FieldType | undefined): void {
    const bounds: Partial<Record<'minLength' | 'maxLength', number>> = {};
    for (const key of ['minLength', 'maxLength'] as const) {
      if (!this.onlyFor(def, path, key, type, 'string')) continue;
      const n = parseLengthAttribute(def[key]);
      if (n === undefined) {
        this.add(
          `${path}.${key}`,
          `${key} must be a non-negative integer, as a number or as numeric text such as "3".`,
        );
      } else {
        bounds[key] = n;
      }
    }
    if (bounds.minLength !== undefined && bounds.maxLength !== undefined) {
      if (bounds.minLength > bounds.maxLength) {
        this.add(
          `${path}.minLength`,
          `minLength (${bounds.minLength}) must not be greater than maxLength (${bounds.maxLength}).`,
        );
      }
    }
  }

  private enumeration(def: Json, path: string, type: FieldType | undefined): void {
    if (!this.onlyFor(def, path, 'enum', type, 'string')) return;
    const values = def.enum;
    if (!Array.isArray(values)) {
      this.add(`${path}.enum`, 'enum must be a non-empty array of distinct strings.');
      return;
    }
    if (values.length === 0) {
      this.add(`${path}.enum`, 'enum must not be empty: list at least one allowed value.');
      return;
    }
    const seen = new Map<string, number>();
    values.forEach((value: unknown, i) => {
      const field = `${path}.enum[${i}]`;
      if (typeof value !== 'string') {
        this.add(field, 'enum values must be strings.');
        return;
      }
      const first = seen.get(value);
      if (first !== undefined) {
        this.add(field, `Duplicate enum value "${value}" (already at enum[${first}]).`);
        return;
      }
      seen.set(value, i);
    });
  }

  private properties(def: Json, path: string, depth: number, type: FieldType | undefined): void {
    const field = `${path}.properties`;
    if (type !== 'object') {
      this.onlyFor(def, path, 'properties', type, 'object');
      return;
    }
    const props = def.properties;
    if (props === undefined) {
      this.add(
        field,
        'properties is required for type "object": an object mapping field names to field definitions.',
      );
      return;
    }
    if (!isObject(props)) {
      this.add(field, 'properties must be an object mapping field names to field definitions.');
      return;
    }
    const names = Object.keys(props);
    if (names.length === 0) {
      this.add(field, 'properties must define at least one field.');
      return;
    }
    for (const name of names) {
      const childPath = `${field}.${name}`;
      if (name === '__proto__') {
        // Legal by the character rule, but it turns into a prototype when code downstream
        // copies fields by assignment; no real document needs a field of that name.
        this.add(childPath, 'Field name "__proto__" is reserved.');
      } else if (!FIELD_NAME.test(name)) {
        this.add(
          childPath,
          `Field name "${name}" is invalid: use 1 to ${STRUCTURE_LIMITS.maxNameLength} letters or digits (any script), "_" or "-".`,
        );
      }
      this.child(props[name], childPath, depth + 1, 'field');
    }
  }

  private items(
    def: Json,
    path: string,
    depth: number,
    type: FieldType | undefined,
    position: Position,
  ): void {
    if (type !== 'array') {
      this.onlyFor(def, path, 'items', type, 'array');
      return;
    }
    if (def.items === undefined) {
      this.add(
        `${path}.items`,
        'items is required for type "array": the field definition of each element.',
      );
      return;
    }
    this.child(def.items, `${path}.items`, depth + 1, position === 'root' ? 'root-items' : 'field');
  }
}

/**
 * Every breach of the structure rules, in document order; empty when the structure is valid.
 * `root` is the request field the structure came in (`structure` for schema bodies).
 */
export function validateStructure(value: unknown, root = 'structure'): FieldError[] {
  if (!isObject(value)) {
    return [
      { field: root, message: `${root} must be a JSON object with "type" "object" or "array".` },
    ];
  }
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  } catch {
    return [{ field: root, message: `${root} must be plain JSON.` }];
  }
  if (bytes > STRUCTURE_LIMITS.maxBytes) {
    // Checked first and alone: a structure this large is not worth walking or reporting on.
    return [
      {
        field: root,
        message: `${root} is ${bytes} bytes as JSON; at most ${STRUCTURE_LIMITS.maxBytes} bytes (64 KiB) are allowed.`,
      },
    ];
  }
  const validator = new StructureValidator();
  const fields = countFields(value);
  if (fields > STRUCTURE_LIMITS.maxFields) {
    validator.errors.push({
      field: root,
      message: `${root} has ${fields} field definitions; at most ${STRUCTURE_LIMITS.maxFields} are allowed.`,
    });
  }
  validator.definition(value, root, 0, 'root');
  return validator.errors;
}

export function isStructure(value: unknown): value is Structure {
  return validateStructure(value).length === 0;
}
