/* The JSON Schema keywords json-schema.ts reads, and those it passes over without a word. */

/** Annotations with nothing to carry over, and the keywords read below: never reported. */
export const QUIET = new Set([
  'title',
  '$schema',
  '$id',
  'id',
  '$comment',
  'examples',
  'example',
  'default',
  'readOnly',
  'writeOnly',
  'deprecated',
  '$defs',
  'definitions',
  'type',
  'description',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'format',
  '$ref',
  'anyOf',
  'oneOf',
  'allOf',
  'additionalProperties',
  'unevaluatedProperties',
  'nullable',
  'discriminator',
  'prefixItems',
]);

/** `$ref`s followed in a row before the chain is taken for a loop. */
export const MAX_REF_CHAIN = 64;

export const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
