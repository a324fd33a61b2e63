import {
  STRUCTURE_LIMITS,
  validateStructure,
  type FieldDefinition,
  type FieldError,
  type Structure,
} from '@xt/contract';
import { fieldName } from '../suggest/draft.ts';
import { MAX_REF_CHAIN, QUIET, TYPES } from './keywords.ts';
import { isObject, pointerSegment, resolveRef, type Json } from './refs.ts';

/*
 * A JSON Schema as people have it (Pydantic's model_json_schema(), zod-to-json-schema, another
 * service's) as a `structure` (docs/api.md#import-a-json-schema). What a structure cannot say
 * (numeric bounds, patterns, unions of different shapes, free-form maps, recursion) is left out
 * and listed with its JSON Pointer; what is broken as a JSON Schema is a 422.
 */

interface Dropped {
  path: string;
  reason: string;
}

type Segment = string | number;

interface Converted {
  def: FieldDefinition;
  /** null is allowed: never `required`, whatever the parent's list says */
  nullable: boolean;
}

class Converter {
  readonly dropped: Dropped[] = [];
  readonly errors: FieldError[] = [];
  private fields = 0;

  constructor(private readonly root: unknown) {}

  private pointer(path: Segment[]): string {
    return path.map((s) => `/${pointerSegment(String(s))}`).join('') || '/';
  }

  private field(path: Segment[]): string {
    return path.reduce<string>(
      (out, s) => (typeof s === 'number' ? `${out}[${s}]` : `${out}.${s}`),
      'jsonSchema',
    );
  }

  drop(path: Segment[], reason: string): undefined {
    this.dropped.push({ path: this.pointer(path), reason });
    return undefined;
  }

  private fail(path: Segment[], message: string): undefined {
    this.errors.push({ field: this.field(path), message });
    return undefined;
  }

  /** The node with its `$ref` and `allOf` folded in; undefined when it cannot be. */
  private expand(
    node: unknown,
    path: Segment[],
    refs: string[],
  ): { node: Json; refs: string[] } | undefined {
    if (typeof node === 'boolean')
      return this.drop(
        path,
        node ? 'true allows any value: a field needs a type' : 'false allows no value',
      );
    if (!isObject(node)) return this.fail(path, 'must be a JSON Schema: an object or a boolean');
    let out: Json = node;
    let seen = refs;
    if (node.$ref !== undefined) {
      const ref = node.$ref;
      if (typeof ref !== 'string')
        return this.fail([...path, '$ref'], '$ref must be a URI reference string');
      const resolved = resolveRef(this.root, ref);
      if (resolved.kind === 'malformed')
        return this.fail([...path, '$ref'], '$ref must be a URI reference string');
      if (resolved.kind === 'remote')
        return this.drop(path, `remote reference ${ref} is not fetched`);
      if (resolved.kind === 'missing')
        return this.fail([...path, '$ref'], `$ref ${ref} points to nothing in this document`);
      // A chain of distinct references is as deep as the document is long: bounded, so a
      // hostile chain of thousands of $defs is refused rather than the stack exhausted.
      if (refs.length >= MAX_REF_CHAIN)
        return this.drop(path, `more than ${MAX_REF_CHAIN} references followed in a row`);
      if (refs.includes(ref))
        return this.drop(
          path,
          `recursive reference ${ref}: a structure cannot contain itself, so it stops here`,
        );
      const target = this.expand(resolved.schema, path, [...refs, ref]);
      if (!target) return undefined;
      const { $ref: _ref, ...siblings } = node;
      out = { ...target.node, ...siblings };
      seen = target.refs;
    }
    if (out.allOf !== undefined) {
      if (!Array.isArray(out.allOf))
        return this.fail([...path, 'allOf'], 'allOf must be an array of schemas');
      const { allOf, ...rest } = out;
      let merged: Json = {};
      for (const [i, branch] of (allOf as unknown[]).entries()) {
        const part = this.expand(branch, [...path, 'allOf', i], seen);
        if (!part) continue;
        const props = {
          ...(isObject(merged.properties) ? merged.properties : {}),
          ...(isObject(part.node.properties) ? part.node.properties : {}),
        };
        const required = [
          ...(Array.isArray(merged.required) ? (merged.required as unknown[]) : []),
          ...(Array.isArray(part.node.required) ? (part.node.required as unknown[]) : []),
        ];
        merged = { ...part.node, ...merged, properties: props, required };
      }
      if (Object.keys(merged.properties as Json).length === 0) delete merged.properties;
      out = { ...merged, ...rest };
    }
    return { node: out, refs: seen };
  }

  /** One schema as a field definition, or undefined when nothing of it can be kept. */
  convert(node: unknown, path: Segment[], depth: number, refs: string[]): Converted | undefined {
    if (depth > STRUCTURE_LIMITS.maxDepth)
      return this.drop(path, `nested deeper than ${STRUCTURE_LIMITS.maxDepth} levels`);
    const expanded = this.expand(node, path, refs);
    if (!expanded) return undefined;
    let { node: schema } = expanded;
    let nullable = schema.nullable === true;
    for (const key of ['anyOf', 'oneOf'] as const) {
      if (schema[key] === undefined) continue;
      const chosen = this.alternatives(schema, key, path, expanded.refs);
      if (!chosen) return undefined;
      nullable ||= chosen.nullable;
      schema = chosen.node;
    }
    const type = this.typeOf(schema, path);
    if (type === undefined) return undefined;
    if (type.nullable) nullable = true;
    for (const key of Object.keys(schema))
      if (!QUIET.has(key)) this.drop([...path, key], `${key} has no equivalent in a structure`);
    const def = this.definition(schema, type.name, path, depth, expanded.refs);
    return def ? { def, nullable } : undefined;
  }

  /** anyOf/oneOf: null makes the field nullable; string constants become an enum; else the first. */
  private alternatives(schema: Json, key: 'anyOf' | 'oneOf', path: Segment[], refs: string[]) {
    const list = schema[key];
    if (!Array.isArray(list) || list.length === 0)
      return this.fail([...path, key], `${key} must be a non-empty array of schemas`);
    const { [key]: _list, ...rest } = schema;
    const branches = (list as unknown[]).map((b, i) => ({
      i,
      b: this.expand(b, [...path, key, i], refs)?.node,
    }));
    const isNull = (b: Json | undefined) => b?.type === 'null' || b?.const === null;
    const real = branches.filter((x) => x.b !== undefined && !isNull(x.b));
    const nullable = branches.some((x) => isNull(x.b));
    if (real.length === 0) return this.drop(path, `no ${key} alternative but null`);
    const words = real.flatMap((x) =>
      typeof x.b!.const === 'string'
        ? [x.b!.const]
        : Array.isArray(x.b!.enum) && x.b!.enum.every((v) => typeof v === 'string')
          ? x.b!.enum
          : [],
    );
    if (
      real.every(
        (x) =>
          typeof x.b!.const === 'string' ||
          (Array.isArray(x.b!.enum) && x.b!.enum.every((v) => typeof v === 'string')),
      )
    )
      return { node: { ...rest, type: 'string', enum: [...new Set(words)] }, nullable };
    for (const other of real.slice(1))
      this.drop([...path, key, other.i], `only the first ${key} alternative is kept`);
    return { node: { ...real[0]!.b!, ...rest }, nullable };
  }

  private typeOf(schema: Json, path: Segment[]): { name: string; nullable: boolean } | undefined {
    const declared = schema.type;
    if (declared === undefined) {
      if (schema.properties !== undefined) return { name: 'object', nullable: false };
      if (schema.items !== undefined) return { name: 'array', nullable: false };
      const value: unknown =
        schema.const ?? (Array.isArray(schema.enum) ? (schema.enum as unknown[])[0] : undefined);
      if (typeof value === 'number') return { name: 'number', nullable: false };
      if (typeof value === 'boolean') return { name: 'boolean', nullable: false };
      if (value === undefined) this.drop(path, 'no type: read as text');
      return { name: 'string', nullable: false };
    }
    const names = Array.isArray(declared) ? declared : [declared];
    if (names.length === 0 || names.some((t) => typeof t !== 'string' || !TYPES.includes(t)))
      return this.fail(
        [...path, 'type'],
        `type must be one of ${TYPES.join(', ')}, or an array of them`,
      );
    const real = (names as string[]).filter((t) => t !== 'null');
    if (real.length === 0) return this.drop(path, 'only null is allowed: nothing to extract');
    if (real.length > 1)
      this.drop([...path, 'type'], `only the first of the types ${real.join(', ')} is kept`);
    return { name: real[0]!, nullable: real.length < names.length };
  }

  private definition(
    schema: Json,
    type: string,
    path: Segment[],
    depth: number,
    refs: string[],
  ): FieldDefinition | undefined {
    const description =
      typeof schema.description === 'string' && schema.description.trim() !== ''
        ? schema.description
        : undefined;
    const format = typeof schema.format === 'string' ? schema.format : undefined;
    const text = format
      ? `${description ?? ''}${description ? ' ' : ''}(format: ${format})`
      : description;
    const def: FieldDefinition = {
      type: type as FieldDefinition['type'],
      ...(text ? { description: text } : {}),
    };
    if (type === 'string') this.stringRules(schema, def, path);
    else {
      for (const key of ['enum', 'const', 'minLength', 'maxLength'])
        if (schema[key] !== undefined)
          this.drop([...path, key], `${key} is kept on text fields only`);
    }
    if (type === 'object') return this.object(schema, def, path, depth, refs);
    if (type === 'array') return this.array(schema, def, path, depth, refs);
    return def;
  }

  private stringRules(schema: Json, def: FieldDefinition, path: Segment[]): void {
    const values = schema.const !== undefined ? [schema.const] : schema.enum;
    if (values !== undefined) {
      if (!Array.isArray(values)) this.fail([...path, 'enum'], 'enum must be an array');
      else {
        const words = [...new Set(values.filter((v): v is string => typeof v === 'string'))];
        if (words.length < values.filter((v) => v !== null).length)
          this.drop([...path, 'enum'], 'values that are not text are left out');
        if (words.length > 0) def.enum = words;
      }
    }
    for (const key of ['minLength', 'maxLength'] as const) {
      const n = schema[key];
      if (n === undefined) continue;
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
        this.fail([...path, key], `${key} must be a non-negative integer`);
      else def[key] = n;
    }
  }

  private object(
    schema: Json,
    def: FieldDefinition,
    path: Segment[],
    depth: number,
    refs: string[],
  ): FieldDefinition | undefined {
    const props = schema.properties ?? {};
    if (!isObject(props))
      return this.fail([...path, 'properties'], 'properties must be an object of schemas');
    const required = schema.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string'))
      return this.fail([...path, 'required'], 'required must be an array of property names');
    if (isObject(schema.additionalProperties) || schema.additionalProperties === true)
      if (Object.keys(props).length > 0 || isObject(schema.additionalProperties))
        this.drop(
          [...path, 'additionalProperties'],
          'properties not named in advance are not kept',
        );
    const out: Record<string, FieldDefinition> = {};
    for (const [key, child] of Object.entries(props)) {
      const at = [...path, 'properties', key];
      const name = fieldName(key);
      if (!name || Object.hasOwn(out, name)) {
        this.drop(at, `"${key}" cannot be a field name (1 to 64 letters, digits, _ or -)`);
        continue;
      }
      if (this.fields >= STRUCTURE_LIMITS.maxFields) {
        this.drop(at, `past the ${STRUCTURE_LIMITS.maxFields} fields a structure may hold`);
        continue;
      }
      this.fields += 1;
      const converted = this.convert(child, at, depth + 1, refs);
      if (!converted) continue;
      if (name !== key) this.drop(at, `renamed "${name}": "${key}" is not a valid field name`);
      if ((required as string[]).includes(key) && !converted.nullable)
        converted.def.required = true;
      out[name] = converted.def;
    }
    if (Object.keys(out).length === 0)
      return this.drop(
        path,
        Object.keys(props).length === 0
          ? 'an object with no named properties (a free-form map) has no equivalent'
          : 'none of its properties could be kept',
      );
    return { ...def, properties: out };
  }

  private array(
    schema: Json,
    def: FieldDefinition,
    path: Segment[],
    depth: number,
    refs: string[],
  ): FieldDefinition | undefined {
    let items: unknown = schema.items;
    let at: Segment[] = [...path, 'items'];
    if (Array.isArray(items)) {
      if (items.length > 1) this.drop(at, 'a tuple: only its first position is kept');
      items = items[0];
      at = [...at, 0];
    } else if (items === undefined && Array.isArray(schema.prefixItems)) {
      this.drop([...path, 'prefixItems'], 'a tuple: only its first position is kept');
      items = schema.prefixItems[0];
      at = [...path, 'prefixItems', 0];
    }
    if (items === undefined || items === true) {
      this.drop(path, 'no item schema: read as a list of text');
      return { ...def, items: { type: 'string' } };
    }
    if (this.fields >= STRUCTURE_LIMITS.maxFields)
      return this.drop(path, `past the ${STRUCTURE_LIMITS.maxFields} fields a structure may hold`);
    this.fields += 1;
    const converted = this.convert(items, at, depth + 1, refs);
    return converted
      ? { ...def, items: converted.def }
      : this.drop(path, 'its items could not be kept');
  }
}

/**
 * The structure for `jsonSchema` and what was left out, or the 422 entries when it is not a
 * JSON Schema this can read (or nothing of it can be a structure's root).
 */
export function convertJsonSchema(
  jsonSchema: unknown,
): { ok: true; structure: Structure; dropped: Dropped[] } | { ok: false; errors: FieldError[] } {
  if (!isObject(jsonSchema))
    return {
      ok: false,
      errors: [{ field: 'jsonSchema', message: 'jsonSchema must be a JSON Schema object' }],
    };
  const converter = new Converter(jsonSchema);
  const root = converter.convert(jsonSchema, [], 0, []);
  if (converter.errors.length > 0) return { ok: false, errors: converter.errors };
  const def = root?.def;
  const rootError = (message: string) => ({
    ok: false as const,
    errors: [{ field: 'jsonSchema', message }],
  });
  if (!def || (def.type !== 'object' && def.type !== 'array'))
    return rootError(
      'the root must describe an object with properties, or an array of objects or arrays; nothing else can be a structure',
    );
  if (def.type === 'array' && def.items?.type !== 'object' && def.items?.type !== 'array')
    return rootError(
      'a root array must hold objects or arrays: wrap the list in an object, e.g. { "items": [...] }',
    );
  const { required: _required, ...structure } = def;
  const problems = validateStructure(structure, 'jsonSchema');
  if (problems.length > 0) return { ok: false, errors: problems };
  return { ok: true, structure: structure as Structure, dropped: converter.dropped };
}
