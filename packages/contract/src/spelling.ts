/** Levenshtein distance; names here are short, so the plain quadratic table is enough. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The name the caller probably meant: one differing only in case, or at most two edits away
 * (`requried` → `required`, `schemaId` → `schema_id`); undefined when none is that close.
 */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const lower = given.toLowerCase();
  return names.find((n) => n.toLowerCase() === lower || editDistance(n.toLowerCase(), lower) <= 2);
}
