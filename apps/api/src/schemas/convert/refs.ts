/**
 * Local `$ref`s of a JSON Schema (`#/$defs/Address`, `#/definitions/Item`, `#`), resolved
 * against the document they came in. Remote references are not fetched: the service never
 * reaches out on a client's behalf for a schema.
 */
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON Pointer segment as written in a path: `~` and `/` escaped. */
export function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

type Resolved =
  | { kind: 'found'; schema: unknown }
  | { kind: 'remote' }
  | { kind: 'missing' }
  | { kind: 'malformed' };

export function resolveRef(root: unknown, ref: unknown): Resolved {
  if (typeof ref !== 'string') return { kind: 'malformed' };
  if (!ref.startsWith('#')) return { kind: 'remote' };
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return { kind: 'malformed' };
  }
  if (fragment !== '' && !fragment.startsWith('/')) return { kind: 'missing' };
  let node: unknown = root;
  for (const raw of fragment.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else if (Array.isArray(node) && /^\d+$/.test(key) && Number(key) < node.length)
      node = node[Number(key)];
    else return { kind: 'missing' };
  }
  return { kind: 'found', schema: node };
}
