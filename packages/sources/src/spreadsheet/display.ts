import { format, getFormatDateInfo, getFormatInfo } from 'numfmt';

/*
 * A cell's value as the sheet shows it. Spreadsheet files store a number and a format code
 * (`#,##0.00`, `0.0%`, `[$€-407] #,##0.00`, `dd/mm/yyyy`), not the text a reader sees; the
 * service formats them with `numfmt`, a maintained implementation of Excel's format codes
 * (sections, locales, fractions, elapsed time), rather than rules of its own. Two choices
 * differ from a screen on purpose (docs/sources.md#spreadsheets):
 * - dates are written as ISO dates (`2024-03-05`, with the time when the format shows one), so
 *   that the model never has to guess whether `05/03/2024` is the 5th of March or the 3rd of May;
 * - whole numbers in the General format are written in full: Excel shows a 13-digit article
 *   number as `4.00638E+12` in a narrow column, which is no use to anyone reading the sheet.
 */

/** Days between Excel's epoch (1899-12-30, in the 1900 system) and 1970-01-01. */
const UNIX_EPOCH_SERIAL = 25569;
const MS_PER_DAY = 86_400_000;

/** What a cell holds once its formula (if any) is reduced to its last computed value. */
export type CellValue = number | string | boolean | Date | { error: string } | null;

/**
 * `[$€-407]` names a currency symbol and a locale. Excel takes the locale for month and day
 * names only, and the separators from the reader's settings; numfmt would take German
 * separators from it too (`1.234,50 €`). The locale is dropped, the symbol kept, so that every
 * number reads with the same separators (those of en-US), as LibreOffice shows them.
 */
function withoutLocale(code: string): string {
  return code.replace(/\[\$([^\]-]*)-[0-9A-Fa-f]+\]/g, (_, symbol: string) =>
    symbol ? `[$${symbol}]` : '',
  );
}

const formats = new Map<string, { type: string; time: boolean; seconds: boolean }>();

function infoOf(code: string) {
  let info = formats.get(code);
  if (!info) {
    const { type } = getFormatInfo(code);
    const dates = getFormatDateInfo(code);
    info = { type, time: dates.hours || dates.minutes, seconds: dates.seconds };
    // Workbooks use a few dozen codes: a bounded cache all the same.
    if (formats.size > 1000) formats.clear();
    formats.set(code, info);
  }
  return info;
}

function serialOf(date: Date): number {
  return date.getTime() / MS_PER_DAY + UNIX_EPOCH_SERIAL;
}

/**
 * The displayed text of `value` under the format code `code` (General when absent), trimmed:
 * accounting formats pad with spaces for alignment, which is not part of the value.
 */
export function displayText(value: CellValue, code: string | undefined): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value;
  if (!(value instanceof Date) && typeof value === 'object') return value.error;
  const pattern = code && code.trim() !== '' ? withoutLocale(code) : 'General';
  const info = infoOf(pattern);
  const number = value instanceof Date ? serialOf(value) : value;
  if (!Number.isFinite(number)) return String(number);
  try {
    const isDate =
      info.type === 'date' ||
      info.type === 'datetime' ||
      (value instanceof Date && info.type !== 'time');
    if (isDate) {
      const iso = info.time
        ? info.seconds
          ? 'yyyy-mm-dd hh:mm:ss'
          : 'yyyy-mm-dd hh:mm'
        : 'yyyy-mm-dd';
      return format(iso, number);
    }
    if (/^general$/i.test(pattern) && Number.isInteger(number) && Math.abs(number) < 1e15)
      return String(number);
    return format(pattern, number).trim();
  } catch {
    // A format code numfmt cannot read: the value as General rather than nothing.
    return format('General', number);
  }
}
