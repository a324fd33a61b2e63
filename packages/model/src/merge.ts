import type { FieldDefinition, Structure } from '@xt/contract';
import type { PointerMove } from './annotations.ts';
import { childPointer } from './pointers.ts';

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
  return mergeTracked(structure, outputs).merged;
}

/**
 * The same merge, also saying where each chunk's values went (array elements are renumbered),
 * so that what the model said about a value (its quote, its probability) follows it.
 */
export function mergeTracked(
  structure: Structure,
  outputs: unknown[],
): { merged: unknown; moves: PointerMove[] } {
  const moves: PointerMove[] = [];
  const merged = mergeValues(
    structure,
    outputs.map((value, source) => ({ value, source })),
    '',
    moves,
  );
  return { merged, moves };
}

interface Sourced {
  value: unknown;
  source: number;
}

function mergeValues(
  field: FieldDefinition,
  values: Sourced[],
  at: string,
  moves: PointerMove[],
): unknown {
  const present = values.filter((v) => v.value !== null && v.value !== undefined);
  if (present.length === 0) return null;
  if (field.type === 'array') {
    const out: unknown[] = [];
    const earlier = new Set<string>();
    let lastSource: number | undefined;
    for (const { value, source } of present) {
      if (!Array.isArray(value)) continue;
      const keys = value.map(canonicalJson);
      value.forEach((element, i) => {
        if (earlier.has(keys[i] as string)) return;
        const joined =
          i === 0 && lastSource !== undefined && lastSource !== source
            ? joinSplitRow(out.at(-1), element)
            : undefined;
        if (joined) {
          const into = childPointer(at, out.length - 1);
          for (const key of joined.filled)
            moves.push({
              source,
              from: childPointer(childPointer(at, 0), key),
              to: childPointer(into, key),
            });
          out[out.length - 1] = joined.row;
          return;
        }
        moves.push({ source, from: childPointer(at, i), to: childPointer(at, out.length) });
        out.push(element);
        lastSource = source;
      });
      for (const key of keys) earlier.add(key);
    }
    return out;
  }
  if (field.type === 'object') {
    const records = present.filter(
      (v): v is { value: Record<string, unknown>; source: number } =>
        typeof v.value === 'object' && !Array.isArray(v.value),
    );
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(field.properties ?? {})) {
      out[name] = mergeValues(
        child,
        records.map((r) => ({ value: r.value[name], source: r.source })),
        childPointer(at, name),
        moves,
      );
    }
    return out;
  }
  const first = present[0] as Sourced;
  moves.push({ source: first.source, from: at, to: at });
  return first.value;
}

/**
 * A row cut at a page break that also ends a chunk: the earlier chunk gave its first cells (the
 * rest null), the next its last cells (the first null). They are one row when they never
 * disagree and each fills a field the other left empty; the row is then joined once, the
 * earlier chunk's values first. Rows that merely share values, or two complete rows, never
 * join: a complete row leaves nothing to fill.
 */
function joinSplitRow(
  before: unknown,
  after: unknown,
): { row: Record<string, unknown>; filled: string[] } | undefined {
  if (!isRecord(before) || !isRecord(after)) return undefined;
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  const filled: string[] = [];
  let beforeFills = false;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[key];
    const b = after[key];
    if (empty(a) && !empty(b)) filled.push(key);
    else if (!empty(a) && empty(b)) beforeFills = true;
    else if (!empty(a) && canonicalJson(a) !== canonicalJson(b)) return undefined;
  }
  if (filled.length === 0 || !beforeFills) return undefined;
  const row = { ...before };
  for (const key of filled) row[key] = after[key];
  return { row, filled };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with object keys sorted, so deep-equal values give equal strings whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
