// Paths into a schema's structure and into the output it shapes, as JSON Pointers (RFC 6901).
// Review settings name fields by their structure path, array items written `*`
// (`/lines/*/amount`); corrections name values in one output, array items by index
// (`/lines/3/amount`). Both resolve to the field definition that governs the value, so a path
// the schema does not have is refused before anything is stored.
import type { FieldDefinition, Structure } from './structure-types.ts';

/** The unescaped tokens of a JSON Pointer; null when it is not one ("" is the root: []). */
export function pointerTokens(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => '/' + String(t).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

/**
 * The definition a path leads to. `item` says what an array step may be: `*` alone (structure
 * paths) or a non-negative index (output pointers).
 */
function walk(
  structure: Structure,
  tokens: readonly string[],
  item: (token: string) => boolean,
): FieldDefinition | undefined {
  let def: FieldDefinition = structure;
  for (const token of tokens) {
    if (def.type === 'array' && def.items && item(token)) def = def.items;
    else if (def.type === 'object' && def.properties && Object.hasOwn(def.properties, token))
      def = def.properties[token]!;
    else return undefined;
  }
  return def;
}

// The definition of a structure path such as `/lines/*/amount`; undefined when absent.
export function fieldAtPath(structure: Structure, path: string): FieldDefinition | undefined {
  const tokens = pointerTokens(path);
  if (!tokens || tokens.length === 0) return undefined;
  return walk(structure, tokens, (t) => t === '*');
}

/** The definition of an output pointer such as `/lines/3/amount`; undefined when absent. */
export function fieldAtPointer(structure: Structure, pointer: string): FieldDefinition | undefined {
  const tokens = pointerTokens(pointer);
  if (!tokens || tokens.length === 0) return undefined;
  return walk(structure, tokens, (t) => /^(0|[1-9]\d{0,8})$/.test(t));
}

// An output pointer's structure path: array indexes become `*` (`/lines/3/a` → `/lines/*/a`).
export function structurePathOf(pointer: string): string {
  return pointer.replace(/\/(0|[1-9]\d*)(?=\/|$)/g, '/*');
}

/**
 * Why `value` cannot stand where `def` is, or null when it can. Null itself is accepted for a
 * field that is not required (the model answers null for a value found nowhere); an object's
 * keys must be its fields, and every field and item is checked in turn.
 */
export function valueProblem(def: FieldDefinition, value: unknown): string | null {
  if (value === null) return def.required ? 'must not be null: the field is required' : null;
  switch (def.type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (def.enum && !def.enum.includes(value)) return `must be one of: ${def.enum.join(', ')}`;
      return null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'integer':
      return Number.isInteger(value) ? null : 'must be an integer';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be a boolean';
    case 'array':
      if (!Array.isArray(value)) return 'must be an array';
      for (const [i, entry] of value.entries()) {
        const problem = def.items ? valueProblem(def.items, entry) : null;
        if (problem) return `item ${i} ${problem}`;
      }
      return null;
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return 'must be an object';
      const props = def.properties ?? {};
      for (const [key, entry] of Object.entries(value)) {
        if (!Object.hasOwn(props, key)) return `has "${key}", which the schema does not`;
        const problem = valueProblem(props[key]!, entry);
        if (problem) return `"${key}" ${problem}`;
      }
      return null;
    }
  }
}
