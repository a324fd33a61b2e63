import type { FieldDefinition, Structure } from '@xt/contract';

/**
 * Gives every optional field the structure defines a value, null when the answer left it out.
 * Strict OpenAI answers always carry every key, but other OpenAI-compatible servers may omit
 * them, and clients should see one shape whatever the provider.
 */
export function fillAbsentFields(structure: Structure, value: unknown): unknown {
  return fill(structure, value);
}

function fill(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.type === 'object' && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(field.properties ?? {})) {
      out[name] = fill(child, record[name]);
    }
    return out;
  }
  if (field.type === 'array' && Array.isArray(value) && field.items) {
    const items = field.items;
    return value.map((element) => fill(items, element));
  }
  return value;
}
