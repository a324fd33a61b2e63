import { samplePattern } from './pattern-sample.ts';

/**
 * Generates a deterministic value that satisfies a JSON schema of the subset OpenAI strict
 * Structured Outputs accepts: strings "sample text" (or the first enum value), numbers 1,
 * booleans true, arrays with one element, nullable types answered with a real value.
 */
type Schema = Record<string, unknown>;

const SAMPLE_TEXT = 'sample text';

export function sampleValue(schema: unknown, root: unknown = schema): unknown {
  if (!isRecord(schema)) return null;
  if (typeof schema.$ref === 'string') return sampleValue(resolveRef(root, schema.$ref), root);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) {
    const real = (schema.enum as unknown[]).find((v) => v !== null);
    return real === undefined ? null : real;
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const options = branches as unknown[];
    const real = options.find((b) => !(isRecord(b) && b.type === 'null')) ?? options[0];
    return sampleValue(real, root);
  }
  switch (pickType(schema.type)) {
    case 'object':
      return sampleObject(schema, root);
    case 'array':
      return [sampleValue(schema.items, root)];
    case 'string':
      return sampleString(schema);
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

function sampleObject(schema: Schema, root: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [key, child] of Object.entries(properties)) out[key] = sampleValue(child, root);
  return out;
}

/**
 * Length limits are not allowed in strict schemas, so the model package writes them into the
 * description ("at least 3 characters"); the stand-in reads them there as a real model would,
 * and also honours real `minLength`/`maxLength` keywords for non-strict callers.
 */
function sampleString(schema: Schema): string {
  const patterned = typeof schema.pattern === 'string' ? samplePattern(schema.pattern) : undefined;
  if (patterned !== undefined) return patterned;
  const description = typeof schema.description === 'string' ? schema.description : '';
  let min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  let max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const exactly = /exactly (\d+) characters?/i.exec(description);
  const atLeast = /at least (\d+) characters?/i.exec(description);
  const atMost = /at most (\d+) characters?/i.exec(description);
  const between = /between (\d+) and (\d+) characters/i.exec(description);
  if (exactly) min = max = Number(exactly[1]);
  if (atLeast) min = Number(atLeast[1]);
  if (atMost) max = Number(atMost[1]);
  if (between) [min, max] = [Number(between[1]), Number(between[2])];
  let text = SAMPLE_TEXT;
  while (text.length < min) text += ' sample text';
  text = text.slice(0, Math.max(min, Math.min(text.length, max)));
  return text;
}

function pickType(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const real = (type as unknown[]).find((t) => t !== 'null');
    return typeof real === 'string' ? real : undefined;
  }
  return undefined;
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(1).split('/').filter(Boolean)) {
    node = isRecord(node) ? node[segment.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  }
  return node;
}

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
