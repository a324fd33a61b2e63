import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { PointerMove } from './annotations.ts';
import { canonicalJson } from './merge.ts';
import { childPointer, valueAt } from './pointers.ts';

/** Where an answer was cut: the list being written, and how many of its items are complete. */
export interface Cut {
  /** JSON Pointer into the output of the list ('' for an array root) */
  pointer: string;
}

/** A continuation repeating more than this many items at its start is not repeating them. */
const MAX_EDGE_OVERLAP = 3;

/**
 * The request for the rest of a list: the conversation so far, and which list to go on with
 * after which item. Fields before the list come back null (they are kept), fields after it in
 * full; the model is shown the last item kept rather than its whole earlier answer, which would
 * cost as many input tokens as the output limit.
 */
export function continuationMessages(
  base: ChatCompletionMessageParam[],
  cut: Cut,
  output: unknown,
): ChatCompletionMessageParam[] {
  const items = valueAt(output, cut.pointer);
  const kept = Array.isArray(items) ? items : [];
  const where = cut.pointer === '' ? 'the top-level list ("")' : `the list at "${cut.pointer}"`;
  const content = [
    `Your previous answer reached the output limit inside ${where} after ${kept.length} items; those items are kept. The last one kept was:`,
    JSON.stringify(kept.at(-1) ?? null),
    `Continue from there: answer with the same JSON structure, where ${where} holds only the items that come after that one in the source, in order, each once. Answer null for every field that comes before that list in the structure (it is kept from before) and give every field after it in full.`,
  ].join('\n');
  return [...base, { role: 'user', content }];
}

/**
 * Puts a continuation after what was kept: the cut list gets the continuation's items (less any
 * it repeated at the edge), every field already complete keeps its value, fields not yet
 * written take the continuation's. Source 0 is `kept`, source 1 the continuation.
 */
export function appendContinuation(
  kept: unknown,
  next: unknown,
  cut: Cut,
): { merged: unknown; moves: PointerMove[] } {
  const moves: PointerMove[] = [];
  const merged = overlay(kept, next, '', cut.pointer, moves);
  return { merged, moves };
}

function overlay(
  kept: unknown,
  next: unknown,
  at: string,
  cut: string,
  moves: PointerMove[],
): unknown {
  if (at === cut) {
    const before: unknown[] = Array.isArray(kept) ? kept : [];
    const after: unknown[] = Array.isArray(next) ? next : [];
    const repeated = edgeOverlap(before, after);
    moves.push({ source: 0, from: at, to: at });
    const added = after.slice(repeated);
    added.forEach((_, j) => {
      moves.push({
        source: 1,
        from: childPointer(at, j + repeated),
        to: childPointer(at, before.length + j),
      });
    });
    return [...before, ...added];
  }
  const keptFields = isRecord(kept) ? kept : {};
  const nextFields = isRecord(next) ? next : {};
  const onPath = cut
    .slice(at.length + 1)
    .split('/')[0]
    ?.replaceAll('~1', '/')
    .replaceAll('~0', '~');
  const out: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(keptFields), ...Object.keys(nextFields)])) {
    const here = childPointer(at, name);
    if (name === onPath) {
      out[name] = overlay(keptFields[name], nextFields[name], here, cut, moves);
    } else if (name in keptFields) {
      out[name] = keptFields[name];
      moves.push({ source: 0, from: here, to: here });
    } else {
      out[name] = nextFields[name];
      moves.push({ source: 1, from: here, to: here });
    }
  }
  return out;
}

/** How many items at the start of `after` repeat the last ones of `before`. */
function edgeOverlap(before: unknown[], after: unknown[]): number {
  for (let k = Math.min(MAX_EDGE_OVERLAP, before.length, after.length); k >= 1; k -= 1) {
    const tail = before.slice(-k).map(canonicalJson);
    const head = after.slice(0, k).map(canonicalJson);
    if (tail.every((item, i) => item === head[i])) return k;
  }
  return 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
