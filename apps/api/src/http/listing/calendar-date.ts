/** Calendar dates as list filters and usage ranges accept them (docs/api.md#list-filters); all UTC. */

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
