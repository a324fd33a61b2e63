/**
 * Timestamps and calendar dates as the API shows and accepts them (docs/api.md#list-filters, docs/api.md#schemas).
 * Everything is UTC: the service stores `timestamptz` and answers with an explicit offset.
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

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Parses a strict `YYYY-MM-DD` calendar date to the start of that day in UTC. Returns
 * undefined for anything else, including dates that do not exist (2026-02-30) which
 * `new Date()` would silently roll over into the next month.
 */
export function parseCalendarDate(text: string): Date | undefined {
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return undefined;
  }
  return date;
}

/** The instant `days` whole UTC days after `d`. */
export function addUtcDays(d: Date, days: number): Date {
  const next = new Date(d.getTime());
  next.setUTCDate(next.getUTCDate() + days);
  return next;
}
