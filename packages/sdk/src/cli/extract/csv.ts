/**
 * RFC 4180 CSV, written and read back (to resume a run). Hand-written rather than a library:
 * the SDK has no runtime dependencies, and these two functions are all the CLI needs.
 */

export function csvLine(values: string[]): string {
  return `${values.map((v) => csvField(neutralised(v))).join(',')}\r\n`;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/*
 * A cell that starts with = + - @, a tab or a carriage return is a formula to a spreadsheet, and
 * what the CLI writes comes from documents, emails and pages anyone may have written
 * (`=HYPERLINK(...)` sends data away when clicked, DDE runs commands). Such a cell gets a leading
 * single quote, as OWASP advises, which spreadsheets show as text. A plain number (`-12.50`) is
 * no formula and is left as it is. Cells already starting with quotes and then such a character
 * get one quote more, so that reading back (a resumed run) takes exactly one off.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const QUOTED_FORMULA = /^'+[=+\-@\t\r]/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

function neutralised(value: string): string {
  return FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}

function restored(value: string): string {
  return QUOTED_FORMULA.test(value) ? value.slice(1) : value;
}

/**
 * Rows of a CSV text; quoted fields may hold commas, quotes and line breaks, and a cell csvLine
 * quoted as a formula comes back as it was.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(restored(field));
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(restored(field));
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  // A last line cut short (the run was killed mid-write) is dropped rather than half-read.
  return rows;
}
