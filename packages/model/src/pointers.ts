/** RFC 6901 JSON Pointers into an output, as citations and warnings name values. */

export function pointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${pointerToken(token)}`;
}

/** The value at `pointer`, or undefined when the path does not exist. */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let node = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = node[Number(token)];
    else if (typeof node === 'object' && node !== null)
      node = (node as Record<string, unknown>)[token];
    else return undefined;
  }
  return node;
}

/** Every non-null scalar of `value` with its pointer, in document order. */
export function scalarLeaves(value: unknown, at = ''): [string, unknown][] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => scalarLeaves(v, childPointer(at, i)));
  if (typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => scalarLeaves(v, childPointer(at, k)));
  return [[at, value]];
}

/** `pointer` is `prefix` or lies below it. */
export function isWithin(pointer: string, prefix: string): boolean {
  return prefix === '' || pointer === prefix || pointer.startsWith(`${prefix}/`);
}
