/** Reading the strict JSON schemas the model package sends: nullable unions, $refs, types. */
export type JsonSchema = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema without its `null` alternative, and whether null was allowed. */
export function unwrapNullable(schema: unknown): { schema: JsonSchema; nullable: boolean } {
  if (!isRecord(schema)) return { schema: {}, nullable: true };
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const real = (branches as unknown[]).find((b) => !(isRecord(b) && b.type === 'null'));
    const nullable = (branches as unknown[]).some((b) => isRecord(b) && b.type === 'null');
    return { schema: isRecord(real) ? real : {}, nullable };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type as unknown[];
    const real = types.find((t) => t !== 'null');
    return { schema: { ...schema, type: real }, nullable: types.includes('null') };
  }
  return { schema, nullable: false };
}

export type ScalarType = 'string' | 'number' | 'integer' | 'boolean';

export function scalarType(schema: JsonSchema): ScalarType | undefined {
  const t = schema.type;
  return t === 'string' || t === 'number' || t === 'integer' || t === 'boolean' ? t : undefined;
}
