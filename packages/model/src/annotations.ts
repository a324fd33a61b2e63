import { leaves } from '@xt/grounding';

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
  // A merge moves every row of every answer: looking each move's entries up by the pointers
  // they lie within, rather than scanning all of an answer's entries per move, keeps a long
  // table's merge linear (6,000 rows took seconds when each move scanned every entry).
  const quoteIndex = new Map<number, EntriesWithin<string>>();
  const probabilityIndex = new Map<number, EntriesWithin<number>>();
  for (const move of moves) {
    const from = sources[move.source];
    if (!from) continue;
    const rekey = <V>(
      entries: Map<string, V> | undefined,
      index: Map<number, EntriesWithin<V>>,
      into: Map<string, V> | undefined,
    ) => {
      if (!entries || !into) return;
      let within = index.get(move.source);
      if (!within) index.set(move.source, (within = entriesWithin(entries)));
      for (const [pointer, value] of within.get(move.from) ?? [])
        into.set(move.to + pointer.slice(move.from.length), value);
    };
    rekey(from.quotes, quoteIndex, quotes);
    rekey(from.probabilities, probabilityIndex, probabilities);
  }
  return { quotes, probabilities };
}

/** Entries grouped under every pointer they lie within (`isWithin`), in the map's order. */
type EntriesWithin<V> = Map<string, [string, V][]>;

function entriesWithin<V>(entries: Map<string, V>): EntriesWithin<V> {
  const index: EntriesWithin<V> = new Map();
  const add = (prefix: string, entry: [string, V]) => {
    const list = index.get(prefix);
    if (list) list.push(entry);
    else index.set(prefix, [entry]);
  };
  for (const entry of entries) {
    const pointer = entry[0];
    add('', entry);
    for (let slash = pointer.indexOf('/', 1); slash !== -1; slash = pointer.indexOf('/', slash + 1))
      add(pointer.slice(0, slash), entry);
    if (pointer !== '') add(pointer, entry);
  }
  return index;
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
