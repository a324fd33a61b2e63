import { munkres } from 'munkres';

export interface Agreement {
  matched: number;
  total: number;
}

export interface Alignment {
  /** expected index → output index */
  pairs: Map<number, number>;
  /** output indexes aligned with no expected item */
  extras: number[];
}

/**
 * Above this many unpaired items on either side the O(n³) assignment would take seconds, so
 * the rest is paired by position instead; identical items are paired before that, so only an
 * output that differs on many long-table rows gets there.
 */
const MAX_ASSIGNMENT = 400;

/**
 * Aligns output items with expected items to agree on as many expected leaves as possible: an
 * assignment problem, solved with the Hungarian algorithm (munkres). Identical items are paired
 * first, in order, which keeps a long table that came back whole cheap. A pair agreeing on no
 * leaf at all is no pair: the expected item is missing and the output item extra.
 */
export function alignItems(
  expected: readonly unknown[],
  actual: readonly unknown[],
  agree: (expected: unknown, actual: unknown) => Agreement,
): Alignment {
  const pairs = new Map<number, number>();
  const byKey = new Map<string, number[]>();
  actual.forEach((item, j) => {
    const key = canonical(item);
    byKey.set(key, [...(byKey.get(key) ?? []), j]);
  });
  const usedActual = new Set<number>();
  const restExpected: number[] = [];
  expected.forEach((item, i) => {
    const candidates = byKey.get(canonical(item));
    const j = candidates?.shift();
    if (j === undefined || agree(item, actual[j]).matched === 0) restExpected.push(i);
    else {
      pairs.set(i, j);
      usedActual.add(j);
    }
  });
  const restActual = actual.map((_, j) => j).filter((j) => !usedActual.has(j));

  if (restExpected.length > 0 && restActual.length > 0) {
    const assigned =
      Math.max(restExpected.length, restActual.length) <= MAX_ASSIGNMENT
        ? bestAssignment(restExpected, restActual, expected, actual, agree)
        : restExpected.slice(0, restActual.length).map((i, k) => [i, restActual[k]!] as const);
    for (const [i, j] of assigned) {
      if (agree(expected[i], actual[j]).matched === 0) continue;
      pairs.set(i, j);
      usedActual.add(j);
    }
  }
  return { pairs, extras: actual.map((_, j) => j).filter((j) => !usedActual.has(j)) };
}

function bestAssignment(
  rows: number[],
  cols: number[],
  expected: readonly unknown[],
  actual: readonly unknown[],
  agree: (expected: unknown, actual: unknown) => Agreement,
): Array<readonly [number, number]> {
  // Cost: the expected leaves a pairing would miss.
  const costs = rows.map((i) =>
    cols.map((j) => {
      const { matched, total } = agree(expected[i], actual[j]);
      return total - matched;
    }),
  );
  return munkres(costs).map(([r, c]) => [rows[r]!, cols[c]!] as const);
}

/** Equal items get equal keys whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
