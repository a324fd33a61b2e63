import { leaves } from '@xt/grounding';
import { isWithin } from './pointers.ts';

/**
 * What a model answer says about its own values, keyed by JSON Pointer into the output: the
 * model's verbatim quote for each (asked for with citations) and the probability of each from
 * its tokens' log-probabilities (undefined when the provider sent none).
 */
export interface Annotations {
  quotes: Map<string, string>;
  probabilities: Map<string, number> | undefined;
}

export const noAnnotations = (): Annotations => ({ quotes: new Map(), probabilities: undefined });

/**
 * Where a subtree of one answer ended up in a merged output: pointers within `from` in the
 * answer numbered `source` are found under `to` (array elements move when answers are merged).
 */
export interface PointerMove {
  source: number;
  from: string;
  to: string;
}

/** The annotations of several answers, re-keyed into the output they were merged into. */
export function carry(sources: Annotations[], moves: PointerMove[]): Annotations {
  const quotes = new Map<string, string>();
  const anyProbabilities = sources.some((s) => s.probabilities !== undefined);
  const probabilities = anyProbabilities ? new Map<string, number>() : undefined;
  for (const move of moves) {
    const from = sources[move.source];
    if (!from) continue;
    const rekey = <V>(entries: Map<string, V> | undefined, into: Map<string, V> | undefined) => {
      if (!entries || !into) return;
      for (const [pointer, value] of entries) {
        if (isWithin(pointer, move.from))
          into.set(move.to + pointer.slice(move.from.length), value);
      }
    };
    rekey(from.quotes, quotes);
    rekey(from.probabilities, probabilities);
  }
  return { quotes, probabilities };
}

/** Only the entries that name a value `output` actually has (a cut answer loses its tail). */
export function keepPresent(annotations: Annotations, output: unknown): Annotations {
  const present = new Set([...leaves(output)].map((leaf) => leaf.pointer));
  const filter = <V>(map: Map<string, V>) =>
    new Map([...map].filter(([pointer]) => present.has(pointer)));
  return {
    quotes: filter(annotations.quotes),
    probabilities: annotations.probabilities && filter(annotations.probabilities),
  };
}
