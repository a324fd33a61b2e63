/**
 * A schema's `structure` as clients submit it (docs/api.md#structure-rules). Stored verbatim (key order and
 * value types preserved), so these types describe what has been validated, not a normal form.
 */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';

export interface FieldDefinition {
  type: FieldType;
  describe?: string;
  description?: string;
  required?: boolean;
  /** non-negative integer as a number or numeric text, e.g. 3 or "3" */
  minLength?: number | string;
  maxLength?: number | string;
  enum?: string[];
  properties?: Record<string, FieldDefinition>;
  items?: FieldDefinition;
}

/** The root: `object` with `properties`, or `array` with `items`. */
export type Structure = FieldDefinition & { type: 'object' | 'array' };
