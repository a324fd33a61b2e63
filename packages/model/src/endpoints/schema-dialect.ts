import type { JsonSchema } from '../json-schema.ts';
import type { Capabilities } from './capabilities.ts';

/*
 * The JSON Schema a server's enforcement can take. A keyword it cannot enforce is either
 * rewritten into one it can (`$ref` inlined, a nullable union collapsed) or moved into the
 * `description` as words: the model still reads it there, and the service validates every
 * answer against the full structure afterwards (validate-output.ts), so nothing is lost but
 * the server's help. OpenAI's dialect needs none of this, and its schema comes back as it went
 * in, key for key, so OpenAI's request bodies (and the pipeline version that hashes them) stay
 * byte-identical.
 */

/**
 * Keywords grammar engines commonly reject or silently drop, moved into the description where
 * the server's enforcement is not known to honour them (`schemaKeywords.constraints`):
 * - llama.cpp's json-schema-to-grammar (grammars/README.md) leaves out `uniqueItems`,
 *   `contains`, `patternProperties`, `not`, `if`/`then`/`else` and most string `format`s;
 * - vLLM's xgrammar backend fell back or failed on `minItems`/`maxItems`, numeric ranges and
 *   `pattern` (vllm-project/vllm#12201, #16723), drops `minLength`/`maxLength` beside a
 *   `pattern` or `format` (vllm#45592, #49996), and llguidance produced broken output on
 *   `patternProperties` (guidance-ai/llguidance#265).
 * A length or range is a hint to the model either way; an engine that fails on it fails the
 * whole request, which is worse than not enforcing it.
 */
const CONSTRAINT_KEYWORDS = [
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'not',
  'if',
  'then',
  'else',
] as const;

/** How often one `$ref` may be expanded inside itself before the recursion is cut. */
export const MAX_REF_DEPTH = 3;

/** Keywords whose value is one schema, a list of schemas, or a map of named schemas. */
const ONE_SCHEMA = new Set([
  'items',
  'additionalProperties',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);
const SCHEMA_MAP = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

/** References inlined in one schema at most: shared definitions can otherwise multiply. */
const MAX_INLINED = 2_000;

interface Rewrite {
  refs: boolean;
  anyOf: boolean;
  pattern: boolean;
  enum: boolean;
  constraints: boolean;
  root: JsonSchema;
  inlined: number;
}

/** `schema` as the server behind `caps` can enforce it; see the note at the top of the file. */
export function adaptSchema(schema: JsonSchema, caps: Capabilities): JsonSchema {
  const keywords = caps.schemaKeywords;
  const rewrite: Rewrite = {
    refs: !keywords.refs,
    anyOf: !keywords.anyOf,
    pattern: !keywords.pattern,
    enum: !keywords.enum,
    constraints: !(keywords.constraints ?? keywords.pattern),
    root: schema,
    inlined: 0,
  };
  const adapted = walk(schema, rewrite, []);
  return isSchema(adapted) ? adapted : {};
}

function walk(node: unknown, rewrite: Rewrite, expanding: string[]): unknown {
  if (!isSchema(node)) return node;
  if (rewrite.refs && typeof node.$ref === 'string') return inlineRef(node, rewrite, expanding);

  let out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    // Every reference is inlined: the definitions would only be more for the server to refuse.
    if (rewrite.refs && (key === '$defs' || key === 'definitions')) continue;
    if (SCHEMA_MAP.has(key) && isSchema(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, walk(child, rewrite, expanding)]),
      );
    } else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
      out[key] = value.map((child) => walk(child, rewrite, expanding));
    } else if (ONE_SCHEMA.has(key) && isSchema(value)) {
      out[key] = walk(value, rewrite, expanding);
    } else out[key] = value;
  }
  if ('const' in out) out = constAsEnum(out);
  if (rewrite.anyOf) out = collapseNullable(out);
  return moveKeywords(out, rewrite);
}

function constAsEnum(node: JsonSchema): JsonSchema {
  // Several engines (older xgrammar, Ollama's llama.cpp) take `enum` but not `const`.
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node))
    if (key === 'const') out.enum = [value];
    else out[key] = value;
  return out;
}

/** Inlines the target of `node.$ref`, its sibling keywords laid over it. */
function inlineRef(node: JsonSchema, rewrite: Rewrite, expanding: string[]): unknown {
  const ref = node.$ref as string;
  const { $ref: _ref, ...siblings } = node;
  const depth = expanding.filter((seen) => seen === ref).length;
  if (depth >= MAX_REF_DEPTH || rewrite.inlined >= MAX_INLINED) {
    return addDescription(
      {},
      `A further nested ${refName(ref)}; any JSON is accepted at this depth (recursion cut after ${MAX_REF_DEPTH} levels).`,
    );
  }
  const target = resolve(rewrite.root, ref);
  if (!isSchema(target)) {
    // A remote or broken reference cannot be inlined; the server would refuse it as it is.
    return walk(addDescription(siblings, `A value as described by ${ref}.`), rewrite, expanding);
  }
  rewrite.inlined += 1;
  const inlined = walk(target, rewrite, [...expanding, ref]);
  if (!isSchema(inlined)) return inlined;
  const merged = { ...inlined, ...walkSiblings(siblings, rewrite, expanding) };
  const description = [inlined.description, siblings.description].filter(Boolean).join(' ');
  return description ? { ...merged, description } : merged;
}

function walkSiblings(siblings: JsonSchema, rewrite: Rewrite, expanding: string[]): JsonSchema {
  return Object.keys(siblings).length === 0
    ? {}
    : (walk(siblings, rewrite, expanding) as JsonSchema);
}

/** Resolves a local reference (`#`, `#/$defs/Name`, `#/definitions/Name`, any JSON pointer). */
function resolve(root: JsonSchema, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isSchema(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

function refName(ref: string): string {
  return ref === '#' ? 'value of the same shape' : `"${ref.slice(ref.lastIndexOf('/') + 1)}"`;
}

/**
 * `anyOf: [X, {type: 'null'}]` becomes X and `type: [T, 'null']` becomes T: an engine without
 * unions can then enforce the value's own shape, and a null the model still answers is
 * accepted by the service's own validation. A union of two real shapes is left as it is.
 */
function collapseNullable(node: JsonSchema): JsonSchema {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (!Array.isArray(branches) || branches.length !== 2) continue;
    const kept = (branches as unknown[]).filter((branch) => !isNullSchema(branch));
    const only = kept[0];
    if (kept.length !== 1 || !isSchema(only)) continue;
    const { [key]: _union, description, ...siblings } = node;
    const merged: JsonSchema = { ...only, ...siblings };
    const words = [only.description, description].filter(Boolean).join(' ');
    return addDescription(words ? { ...merged, description: words } : merged, 'May be null.');
  }
  const type = node.type;
  if (Array.isArray(type) && type.length === 2 && type.includes('null')) {
    const out: JsonSchema = { ...node, type: type.find((t) => t !== 'null') };
    // The null an `enum` lists beside the values would contradict the single type.
    if (Array.isArray(out.enum)) out.enum = out.enum.filter((value) => value !== null);
    return addDescription(out, 'May be null.');
  }
  return node;
}

function isNullSchema(node: unknown): boolean {
  return isSchema(node) && node.type === 'null' && Object.keys(node).length <= 2;
}

/** Keywords the server cannot enforce, moved into the description as words. */
function moveKeywords(node: JsonSchema, rewrite: Rewrite): JsonSchema {
  const moved: string[] = [];
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const words = wordsFor(key, value, rewrite);
    if (words === undefined) out[key] = value;
    else moved.push(words);
  }
  if (moved.length === 0) return node;
  if (out.type === undefined && Array.isArray(node.enum)) {
    // Without its `enum` a bare value list would accept anything; keep at least its type.
    const types = new Set(node.enum.map(jsonType));
    if (types.size === 1) out.type = [...types][0];
  }
  return addDescription(out, moved.filter(Boolean).join(' '));
}

function wordsFor(key: string, value: unknown, rewrite: Rewrite): string | undefined {
  if (key === 'pattern' && rewrite.pattern) return `Matches the pattern ${String(value)}.`;
  if (key === 'enum' && rewrite.enum && Array.isArray(value))
    return `One of: ${value.map((v) => JSON.stringify(v)).join(', ')}.`;
  if (!rewrite.constraints || !(CONSTRAINT_KEYWORDS as readonly string[]).includes(key)) return;
  if (key === 'format') return `In the ${String(value)} format.`;
  if (key === 'uniqueItems') return value === true ? 'No item repeated.' : '';
  const phrase = NUMBER_PHRASES[key];
  return phrase && typeof value === 'number'
    ? phrase.replace('#', String(value))
    : `${key}: ${JSON.stringify(value)}.`;
}

const NUMBER_PHRASES: Record<string, string> = {
  minLength: 'At least # characters.',
  maxLength: 'At most # characters.',
  minimum: 'At least #.',
  maximum: 'At most #.',
  exclusiveMinimum: 'Greater than #.',
  exclusiveMaximum: 'Less than #.',
  multipleOf: 'A multiple of #.',
  minItems: 'At least # items.',
  maxItems: 'At most # items.',
};

function addDescription(node: JsonSchema, words: string): JsonSchema {
  if (!words) return node;
  const before = typeof node.description === 'string' ? node.description.trim() : '';
  return { ...node, description: before ? `${before} ${words}` : words };
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isSchema(node: unknown): node is JsonSchema {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}
