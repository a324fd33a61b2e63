/**
 * Scalar equality as the evaluation scores it: strings after case and whitespace
 * normalisation, numbers by value (a numeric string counts as its number), dates by the day or
 * instant they name whatever their written form.
 */
export function scalarsMatch(expected: unknown, actual: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (actual === null || actual === undefined) return false;
  if (typeof expected === 'number') {
    const value = toNumber(actual);
    return value !== undefined && numbersEqual(expected, value);
  }
  if (typeof expected === 'boolean') return actual === expected;
  if (typeof expected === 'string') {
    if (typeof actual === 'number') {
      const value = toNumber(expected);
      return value !== undefined && numbersEqual(value, actual);
    }
    if (typeof actual !== 'string') return false;
    if (normaliseText(expected) === normaliseText(actual)) return true;
    const a = parseDate(expected);
    return a !== undefined && a === parseDate(actual);
  }
  return false;
}

export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function numbersEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** A number, or numeric text such as "1,234.50" (thousands commas allowed, nothing else). */
function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!/^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(text)) return undefined;
  return Number(text.replaceAll(',', ''));
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The day a date names, as `YYYY-MM-DD`, or the instant of a date-time in ms; undefined when
 * the text is no date. Only unambiguous forms: ISO, "14 March 2026", "March 14, 2026" (never
 * 03/04/2026, which reads differently on either side of the Atlantic).
 */
export function parseDate(text: string): string | undefined {
  const t = text.trim();
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
      t,
    );
  if (iso) {
    if (iso[4] === undefined) return validDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    const ms = Date.parse(`${iso[1]}-${iso[2]}-${iso[3]}T${iso[4]}${iso[5] ?? 'Z'}`);
    return Number.isNaN(ms) ? undefined : String(ms);
  }
  const dayFirst = /^(\d{1,2})(?:st|nd|rd|th)?\.?\s+([a-z]+)\.?,?\s+(\d{4})$/i.exec(t);
  if (dayFirst) return named(dayFirst[3], dayFirst[2], dayFirst[1]);
  const monthFirst = /^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i.exec(t);
  if (monthFirst) return named(monthFirst[3], monthFirst[1], monthFirst[2]);
  return undefined;
}

function named(
  year: string | undefined,
  month: string | undefined,
  day: string | undefined,
): string | undefined {
  const index = MONTHS.indexOf((month ?? '').slice(0, 3).toLowerCase());
  if (index < 0) return undefined;
  return validDay(Number(year), index + 1, Number(day));
}

function validDay(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}
