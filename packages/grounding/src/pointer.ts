/** RFC 6901: `~` → `~0`, `/` → `~1`; the empty path is the whole document, `""`. */
export function jsonPointer(path: readonly (string | number)[]): string {
  let pointer = '';
  for (const part of path) pointer += '/' + escapeToken(String(part));
  return pointer;
}

export function escapeToken(token: string): string {
  return token.includes('~') || token.includes('/')
    ? token.replaceAll('~', '~0').replaceAll('/', '~1')
    : token;
}

export type Leaf = { pointer: string; value: string | number | boolean };

/**
 * Every leaf of a JSON value that is not null, depth first in document order (object keys in
 * insertion order, array items by index). Iterative, so a deeply nested answer cannot overflow
 * the stack.
 */
export function* leaves(output: unknown): Iterable<Leaf> {
  const stack: { pointer: string; value: unknown }[] = [{ pointer: '', value: output }];
  while (stack.length > 0) {
    const { pointer, value } = stack.pop()!;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      yield { pointer, value };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ pointer: `${pointer}/${i}`, value: value[i] });
    } else if (value !== null && typeof value === 'object') {
      const entries: [string, unknown][] = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        stack.push({ pointer: `${pointer}/${escapeToken(key)}`, value: child });
      }
    }
  }
}
