import type { FieldDefinition, Structure } from '@xt/contract';

/**
 * Merges the outputs of the chunks of one document, given in document order, without another
 * model call:
 * - arrays are concatenated in document order, and an element deep-equal to one an earlier
 *   chunk already gave is dropped: lists such as line items run across pages, and an element
 *   repeated word for word in another chunk is nearly always a running header or a row repeated
 *   at a page break. Identical elements within one chunk stay: the model saw both rows side by
 *   side, so they are two rows;
 * - objects are merged field by field, recursively;
 * - scalars take the first non-null value in document order: header facts (numbers, dates,
 *   parties) come first in a document, and a chunk that does not contain a value says null.
 * A model "reduce" call was rejected: it costs tokens and time on every long document, can
 * drop or rewrite items while merging, and adds a failure mode; this merge is deterministic.
 */
export function mergeOutputs(structure: Structure, outputs: unknown[]): unknown {
  return mergeValues(structure, outputs);
}

function mergeValues(field: FieldDefinition, values: unknown[]): unknown {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return null;
  if (field.type === 'array') {
    const out: unknown[] = [];
    const earlier = new Set<string>();
    for (const value of present) {
      if (!Array.isArray(value)) continue;
      const keys = value.map(canonicalJson);
      value.forEach((element, i) => {
        if (!earlier.has(keys[i] as string)) out.push(element);
      });
      for (const key of keys) earlier.add(key);
    }
    return out;
  }
  if (field.type === 'object') {
    const records = present.filter(
      (v): v is Record<string, unknown> => typeof v === 'object' && !Array.isArray(v),
    );
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(field.properties ?? {})) {
      out[name] = mergeValues(
        child,
        records.map((r) => r[name]),
      );
    }
    return out;
  }
  return present[0];
}

/** JSON with object keys sorted, so deep-equal values give equal strings whatever the key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
