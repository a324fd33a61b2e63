import type { FieldDefinition, Structure } from '@xt/contract';
import { fieldSchema, type JsonSchema } from './json-schema.ts';
import { childPointer, valueAt } from './pointers.ts';

/*
 * With citations the model answers `{ output, quotes }` in the same call: `output` is the
 * answer as without citations, `quotes` mirrors it with, for each value, the passage of the
 * source it was read from. The service only uses a quote it finds in the source itself
 * (docs/citations.md); asking in the same call costs output tokens but no second request.
 */

export const OUTPUT_KEY = 'output';
export const QUOTES_KEY = 'quotes';

/** Longest quote kept from the model; the record's own quote is the source's text, ≤ 500. */
const MAX_QUOTE_CHARS = 1_000;

export const QUOTE_RULES = `Beside "${OUTPUT_KEY}", answer "${QUOTES_KEY}": the same shape as "${OUTPUT_KEY}", where each value is replaced by the shortest passage of the source it was read from, copied character for character (at most 200 characters, on as few lines as possible). Use null where the value is null or is not written in the source (for example a sum you computed).`;

/** The strict schema of a cited answer; stays within strict mode (every property required). */
export function toCitedJsonSchema(structure: Structure): JsonSchema {
  return {
    type: 'object',
    properties: {
      [OUTPUT_KEY]: fieldSchema(structure, false),
      [QUOTES_KEY]: quotesSchema(structure, false),
    },
    required: [OUTPUT_KEY, QUOTES_KEY],
    additionalProperties: false,
  };
}

function quotesSchema(field: FieldDefinition, nullable: boolean): JsonSchema {
  const orNull = (schema: JsonSchema): JsonSchema =>
    nullable ? { anyOf: [schema, { type: 'null' }] } : schema;
  switch (field.type) {
    case 'object': {
      const properties: Record<string, JsonSchema> = {};
      for (const [name, child] of Object.entries(field.properties ?? {}))
        properties[name] = quotesSchema(child, true);
      return orNull({
        type: 'object',
        properties,
        required: Object.keys(properties),
        additionalProperties: false,
      });
    }
    case 'array':
      return orNull({
        type: 'array',
        items: field.items ? quotesSchema(field.items, false) : { type: ['string', 'null'] },
      });
    default:
      return { type: ['string', 'null'] };
  }
}

/** The model's quotes, keyed by the pointer of the value each stands beside. */
export function readQuotes(quotes: unknown, output: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (node: unknown, at: string) => {
    if (typeof node === 'string') {
      const value = valueAt(output, at);
      if (node.trim() !== '' && value !== null && value !== undefined && typeof value !== 'object')
        found.set(at, node.slice(0, MAX_QUOTE_CHARS));
    } else if (Array.isArray(node)) node.forEach((child, i) => walk(child, childPointer(at, i)));
    else if (typeof node === 'object' && node !== null)
      for (const [key, child] of Object.entries(node)) walk(child, childPointer(at, key));
  };
  walk(quotes, '');
  return found;
}
