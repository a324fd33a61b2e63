import {
  fieldAtPointer,
  pointerTokens,
  valueProblem,
  type FieldError,
  type Structure,
} from '@xt/contract';

/** Where a correction's problem is named: `corrections["/lines/0/amount"]`. */
const fieldOf = (pointer: string) => `corrections[${JSON.stringify(pointer)}]`;

/**
 * The output with the reviewer's corrections set at their JSON Pointers, or the problems: a
 * pointer the schema does not have, a value of the wrong type for its field, or a place the
 * output does not hold (an array index past its end; one past it appends).
 */
export function applyCorrections(
  structure: Structure,
  output: unknown,
  corrections: Record<string, unknown>,
): { result: unknown; errors: FieldError[] } {
  const result: unknown = structuredClone(output);
  const errors: FieldError[] = [];
  for (const [pointer, value] of Object.entries(corrections)) {
    const field = fieldOf(pointer);
    const def = fieldAtPointer(structure, pointer);
    if (!def) {
      errors.push({ field, message: `${pointer} is not a value the schema has` });
      continue;
    }
    const problem = valueProblem(def, value);
    if (problem) {
      errors.push({ field, message: `${problem} (${def.type} at ${pointer})` });
      continue;
    }
    const tokens = pointerTokens(pointer)!;
    let parent: unknown = result;
    for (const token of tokens.slice(0, -1)) {
      parent =
        parent !== null && typeof parent === 'object'
          ? (parent as Record<string, unknown>)[token]
          : undefined;
    }
    const last = tokens.at(-1)!;
    if (Array.isArray(parent) && Number(last) <= parent.length) parent[Number(last)] = value;
    else if (parent !== null && typeof parent === 'object' && !Array.isArray(parent))
      (parent as Record<string, unknown>)[last] = value;
    else errors.push({ field, message: `the result holds nothing at ${pointer}` });
  }
  return { result, errors };
}
