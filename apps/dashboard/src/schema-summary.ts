import { formatDateTime, shortId } from './format.ts';
import type { Schema } from './types.ts';

export interface FieldCounts {
  /** Every field that holds a value (not an object or a list of them). */
  leaves: number;
  /** Those of them inside an object or a list rather than at the top. */
  nested: number;
}

/**
 * The fields a structure asks for, counted at every depth: an invoice's `lines[].amount` is a
 * field a person fills in as much as `total` is, and counting only the top level hid most of
 * a schema with line items.
 */
export function fieldCounts(structure: unknown): FieldCounts {
  const counts: FieldCounts = { leaves: 0, nested: 0 };
  const walk = (def: unknown, depth: number) => {
    const d = (def && typeof def === 'object' ? def : {}) as Record<string, unknown>;
    const props = d.properties;
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      for (const child of Object.values(props)) walk(child, depth + 1);
    } else if (d.items !== undefined && typeof d.items === 'object') {
      // A list's items sit one level down: `lines[]`'s `amount` is nested, a list of strings
      // at the top is one field.
      const items = d.items as Record<string, unknown>;
      if (items.properties) walk(items, depth);
      else count(depth);
    } else count(depth);
  };
  const count = (depth: number) => {
    counts.leaves += 1;
    if (depth > 1) counts.nested += 1;
  };
  const root = (structure && typeof structure === 'object' ? structure : {}) as Record<
    string,
    unknown
  >;
  if (root.properties || (root.items as { properties?: unknown } | undefined)?.properties)
    walk(root, 0);
  return counts;
}

/** "6 fields (2 nested)", "1 field". */
export function fieldCountLabel(structure: unknown): string {
  const { leaves, nested } = fieldCounts(structure);
  const base = `${leaves} field${leaves === 1 ? '' : 's'}`;
  return nested ? `${base} (${nested} nested)` : base;
}

/**
 * A schema as a picker lists it: its name, and where another schema has the same name (each
 * README example makes its own "Invoice"), what tells them apart: how many fields, when it was
 * made, and its id's start.
 */
export function schemaChoiceLabel(schema: Schema, all: readonly Schema[]): string {
  const twins = all.filter((s) => s.name === schema.name).length;
  if (twins < 2) return schema.name;
  return `${schema.name} · ${fieldCountLabel(schema.structure)} · ${formatDateTime(schema.createdAt)} · ${shortId(schema.id)}`;
}
