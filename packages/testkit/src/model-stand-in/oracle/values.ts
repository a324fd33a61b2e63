import type { JsonSchema, ScalarType } from './schema-walk.ts';

const NUMBER = /[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/;

/** A cell or labelled value read as the schema's type; undefined when it cannot be. */
export function readScalar(text: string, type: ScalarType, schema: JsonSchema): unknown {
  const value = text.trim();
  if (value === '') return undefined;
  switch (type) {
    case 'number':
    case 'integer': {
      // A currency code or sign may sit beside the number; other words may not.
      const rest = value
        .replace(NUMBER, '')
        .replace(/[A-Z]{3}|[$€£]/g, '')
        .trim();
      const match = NUMBER.exec(value);
      if (!match || rest !== '') return undefined;
      const n = Number(match[0].replaceAll(',', ''));
      return type === 'integer' && !Number.isInteger(n) ? undefined : n;
    }
    case 'boolean':
      if (/^(yes|true)$/i.test(value)) return true;
      if (/^(no|false)$/i.test(value)) return false;
      return undefined;
    case 'string': {
      const options = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : undefined;
      if (!options) return value;
      return options.find((o) => typeof o === 'string' && o.toLowerCase() === value.toLowerCase());
    }
  }
}
