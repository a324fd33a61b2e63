/** String helpers for writing Markdown from DOM text: whitespace, emphasis marks, safe link targets. */

/** HTML whitespace (and no-break spaces) collapsed to single spaces, as a browser lays out text. */
export function collapse(s: string): string {
  return s.replace(/[ \t\n\r\f\u00a0]+/g, ' ');
}

/** Trims each line of an inline run; `\n` only survives where a <br> put it. */
export function tidy(s: string): string {
  return s
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * Leading whitespace, the rest, trailing whitespace. trimStart/trimEnd strip exactly `\s`, in
 * linear time; the pattern `/^(\s*)([\s\S]*?)(\s*)$/` was quadratic in a run of spaces.
 */
function padding(s: string): [string, string, string] {
  const lead = s.length - s.trimStart().length;
  const core = s.trim();
  return [s.slice(0, lead), core, s.slice(lead + core.length)];
}

/** Puts `mark` around the text but outside its leading and trailing spaces (`**a** b`, not `** a**`). */
export function wrap(inner: string, mark: string): string {
  const [lead, core, trail] = padding(inner);
  if (core === '') return inner;
  return `${lead}${mark}${core}${mark}${trail}`;
}

export function wrapLink(inner: string, href: string): string {
  const [lead, core, trail] = padding(inner);
  return `${lead}[${collapse(core)}](${href})${trail}`;
}

/** Only web, mail and phone links are kept; parentheses and spaces are escaped for Markdown. */
export function safeUrl(url: string): string | null {
  if (!/^(https?:|mailto:|tel:)/i.test(url) || url.length > 2000) return null;
  // encodeURIComponent leaves parentheses alone, and a bare ")" would end the Markdown link.
  return url.replace(/[()\s]/g, (c) =>
    c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c),
  );
}
