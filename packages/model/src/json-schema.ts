import type { FieldDefinition, Structure } from '@xt/contract';
import { fieldDescription, isRequired, lengthHint } from './field-rules.ts';

export type JsonSchema = Record<string, unknown>;

/** The property a root array is wrapped in: OpenAI requires an object at the schema root. */
export const WRAP_KEY = 'items';

/**
 * A strict OpenAI Structured Outputs schema for a structure. Every object lists all its
 * properties in `required` with `additionalProperties: false` (strict mode demands both);
 * optionality is expressed as nullability instead, so the model can answer null for an absent
 * value rather than inventing one. The structure rules (depth at most 10, at most 500 fields)
 * keep this within OpenAI's strict limits (5,000 properties, 10 nesting levels for the schema
 * of an object root; the wrapper of an array root adds one level).
 */
export function toJsonSchema(structure: Structure): { schema: JsonSchema; wrapped: boolean } {
  if (structure.type === 'array') {
    return {
      schema: {
        type: 'object',
        properties: { [WRAP_KEY]: fieldSchema(structure, false) },
        required: [WRAP_KEY],
        additionalProperties: false,
      },
      wrapped: true,
    };
  }
  return { schema: fieldSchema(structure, false), wrapped: false };
}

/** Takes the model's answer back to the structure's shape. */
export function unwrapOutput(value: unknown, wrapped: boolean): unknown {
  if (!wrapped) return value;
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[WRAP_KEY]
    : value;
}

/** One field's strict schema; `nullable` answers null for an absent optional value. */
export function fieldSchema(field: FieldDefinition, nullable: boolean): JsonSchema {
  const description = [fieldDescription(field), lengthHint(field)].filter(Boolean).join(' ');
  const described = (schema: JsonSchema): JsonSchema =>
    description ? { ...schema, description } : schema;

  switch (field.type) {
    case 'object': {
      const properties: Record<string, JsonSchema> = {};
      for (const [name, child] of Object.entries(field.properties ?? {})) {
        properties[name] = fieldSchema(child, !isRequired(child));
      }
      const object = described({
        type: 'object',
        properties,
        required: Object.keys(properties),
        additionalProperties: false,
      });
      return nullable ? { anyOf: [object, { type: 'null' }] } : object;
    }
    case 'array': {
      // Elements are never null, whatever `items.required` says: an element the source does
      // not contain is simply not listed, and a null element carries no information.
      const array = described({
        type: 'array',
        items: field.items ? fieldSchema(field.items, false) : {},
      });
      return nullable ? { anyOf: [array, { type: 'null' }] } : array;
    }
    default: {
      const scalar: JsonSchema = { type: nullable ? [field.type, 'null'] : field.type };
      if (field.type === 'string' && field.enum) {
        scalar.enum = nullable ? [...field.enum, null] : [...field.enum];
      }
      return described(scalar);
    }
  }
}
