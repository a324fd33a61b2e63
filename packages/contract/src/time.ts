/**
 * Timestamps as the API and webhook bodies show them (docs/api.md#schemas). Everything is UTC:
 * the service stores `timestamptz` and answers with an explicit offset.
 */

/**
 * ISO 8601 with milliseconds and an explicit `+00:00` offset, e.g.
 * `2026-11-21T09:30:00.000+00:00`. The contract asks for an offset rather than `Z`.
 * Throws a RangeError for an invalid Date, like `toISOString`.
 */
export function formatTimestamp(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(0, -1)}+00:00`;
}
