import {
  DRAFT_FIELDS_KEY,
  FIELD_NAME,
  PROPOSED_COLUMN_TYPES,
  PROPOSED_TYPES,
  STRUCTURE_LIMITS,
  type FieldDefinition,
  type ProposedColumn,
  type ProposedField,
  type Structure,
} from '@xt/contract';

/*
 * The draft structure from what the model proposed for each sample (docs/api.md#suggest-a-schema).
 * The model's answer is held to the proposal structure, but its names and types are still
 * words it chose: they are made valid here, so the draft always passes POST /schemas as it is.
 */

/** Proposals kept at most: a draft far past this is no longer a schema anyone reviews. */
const MAX_DRAFT_FIELDS = 200;
const MAX_COLUMNS = 40;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A valid field name from a proposed or imported one: as it is when valid, else its runs of
 * other characters made `_` (`first name` → `first_name`); undefined when nothing is left.
 */
export function fieldName(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const valid = (name: string) => FIELD_NAME.test(name) && name !== '__proto__';
  if (valid(raw)) return raw;
  const name = raw
    .split(/[^\p{L}\p{M}\p{N}_-]+/u)
    .filter(Boolean)
    .join('_')
    .slice(0, STRUCTURE_LIMITS.maxNameLength);
  return valid(name) ? name : undefined;
}

function text(raw: unknown): string | undefined {
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
}

function scalar(type: string, description: string | undefined): FieldDefinition {
  const def: FieldDefinition =
    type === 'date'
      ? { type: 'string', description: `${description ?? 'A date'} (YYYY-MM-DD)` }
      : { type: type as FieldDefinition['type'] };
  if (description && type !== 'date') def.description = description;
  return def;
}

function columnsOf(raw: unknown): Record<string, FieldDefinition> {
  const out: Record<string, FieldDefinition> = {};
  if (!Array.isArray(raw)) return out;
  for (const c of raw.slice(0, MAX_COLUMNS) as Partial<ProposedColumn>[]) {
    const name = isObject(c) ? fieldName(c.name) : undefined;
    if (!name || name in out) continue;
    const type = (PROPOSED_COLUMN_TYPES as readonly unknown[]).includes(c.type)
      ? c.type!
      : 'string';
    out[name] = scalar(type, text(c.description));
  }
  return out;
}

function options(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const values = [...new Set(raw.filter((v): v is string => typeof v === 'string' && v !== ''))];
  return values.length > 0 ? values : undefined;
}

function definitionOf(p: Partial<ProposedField>): FieldDefinition {
  const type = (PROPOSED_TYPES as readonly unknown[]).includes(p.type) ? p.type! : 'string';
  const description = text(p.description);
  if (type !== 'list') {
    const def = scalar(type, description);
    const allowed = type === 'string' ? options(p.options) : undefined;
    if (allowed) def.enum = allowed;
    return def;
  }
  const columns = columnsOf(p.columns);
  const items: FieldDefinition =
    Object.keys(columns).length > 0 ? { type: 'object', properties: columns } : { type: 'string' };
  return { type: 'array', ...(description ? { description } : {}), items };
}

/** The proposals one drafting answer holds; anything else in it is ignored. */
export function proposalsOf(output: unknown): Partial<ProposedField>[] {
  const list = isObject(output) ? output[DRAFT_FIELDS_KEY] : undefined;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/**
 * One draft from every sample's proposals: each name once, in the order first proposed, the
 * first proposal of a name deciding its definition. Nothing is `required`: a sample showing a
 * field does not make it present in every document, and a required field pushes the model to
 * invent a value when one is not.
 */
export function draftStructure(perSample: Partial<ProposedField>[][]): Structure | undefined {
  const properties: Record<string, FieldDefinition> = {};
  for (const proposals of perSample) {
    for (const p of proposals) {
      const name = fieldName(p.name);
      if (!name || name in properties) continue;
      if (Object.keys(properties).length >= MAX_DRAFT_FIELDS) break;
      properties[name] = definitionOf(p);
    }
  }
  if (Object.keys(properties).length === 0) return undefined;
  return { type: 'object', properties };
}

/** A value the document gave: not null, not blank text, not an empty list or object. */
function given(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.values(value).some(given);
  return true;
}

/** Which of the draft's fields a run found a value for, and the share found (0 to 1). */
export function fieldsFound(
  structure: Structure,
  output: unknown,
): { found: string[]; missing: string[]; share: number } {
  const names = Object.keys(structure.properties ?? {});
  const values = isObject(output) ? output : {};
  const found = names.filter((n) => given(values[n]));
  const missing = names.filter((n) => !found.includes(n));
  const share = names.length === 0 ? 0 : Math.round((found.length / names.length) * 1000) / 1000;
  return { found, missing, share };
}
