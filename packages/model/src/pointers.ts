/** RFC 6901 JSON Pointers into an output, as citations and warnings name values. */
import { jsonPointer } from '@xt/grounding';

export function childPointer(parent: string, token: string | number): string {
  return parent + jsonPointer([token]);
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

/** `pointer` is `prefix` or lies below it. */
export function isWithin(pointer: string, prefix: string): boolean {
  return prefix === '' || pointer === prefix || pointer.startsWith(`${prefix}/`);
}
