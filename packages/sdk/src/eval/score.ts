import { alignItems } from './align.ts';
import { scalarsMatch } from './normalise.ts';

/** One expected leaf: where it is, the pattern it counts under, and whether it matched. */
export interface LeafResult {
  /** JSON-Pointer-like location in the expected value, e.g. `/lines/3/amount` */
  path: string;
  /** the location with each array position written as an asterisk */
  pattern: string;
  expected: unknown;
  /** undefined when the output has nothing there */
  actual: unknown;
  matched: boolean;
}

/** Items of one array of the expected value against those of the output. */
export interface ArrayResult {
  path: string;
  pattern: string;
  expected: number;
  actual: number;
  /** aligned pairs that agree on at least half the expected item's leaves */
  found: number;
}

/** An output item no expected item was aligned with. */
export interface ExtraItem {
  path: string;
  actual: unknown;
}

export interface CaseScore {
  leaves: LeafResult[];
  arrays: ArrayResult[];
  extras: ExtraItem[];
}

/**
 * Scores an output against the expected value. Every expected leaf counts once; objects are
 * compared key by key; arrays are aligned item to item by best match (see align.ts), so order
 * does not matter, and an expected item left without a partner counts all its leaves as missed.
 */
export function scoreOutput(expected: unknown, actual: unknown): CaseScore {
  const score: CaseScore = { leaves: [], arrays: [], extras: [] };
  walk(expected, actual, '', '', score);
  return score;
}

function walk(expected: unknown, actual: unknown, path: string, pattern: string, out: CaseScore) {
  if (Array.isArray(expected)) {
    walkArray(expected, actual, path, pattern, out);
    return;
  }
  if (isObject(expected)) {
    const other = isObject(actual) ? actual : undefined;
    for (const [key, value] of Object.entries(expected)) {
      const segment = `/${escapeSegment(key)}`;
      walk(value, other?.[key], path + segment, pattern + segment, out);
    }
    return;
  }
  out.leaves.push({
    path: path || '/',
    pattern: pattern || '/',
    expected,
    actual,
    matched: !isContainer(actual) && scalarsMatch(expected, actual),
  });
}

function walkArray(
  expected: unknown[],
  actual: unknown,
  path: string,
  pattern: string,
  out: CaseScore,
): void {
  const items = Array.isArray(actual) ? actual : [];
  const { pairs, extras } = alignItems(expected, items, (e, a) => {
    const leaves = scoreOutput(e, a).leaves;
    return { matched: leaves.filter((l) => l.matched).length, total: leaves.length };
  });
  let found = 0;
  for (const [i, item] of expected.entries()) {
    const partner = pairs.get(i);
    const before = out.leaves.length;
    walk(
      item,
      partner === undefined ? undefined : items[partner],
      `${path}/${i}`,
      `${pattern}/*`,
      out,
    );
    const mine = out.leaves.slice(before);
    const matched = mine.filter((l) => l.matched).length;
    if (partner !== undefined && mine.length > 0 && matched * 2 >= mine.length) found += 1;
  }
  for (const j of extras) out.extras.push({ path: `${path}/${j}`, actual: items[j] });
  out.arrays.push({
    path: path || '/',
    pattern: pattern || '/',
    expected: expected.length,
    actual: items.length,
    found,
  });
}

function escapeSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
