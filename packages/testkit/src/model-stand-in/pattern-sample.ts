/*
 * A string matching a `pattern`, as strict structured outputs guarantee one: enough of regular
 * expressions for the patterns schemas carry (anchors, literals, \d \w \s, classes, groups
 * without alternation, quantifiers), each repeated the fewest times it may be. A pattern
 * beyond that gives undefined and the caller keeps its own sample.
 */
export function samplePattern(pattern: string): string | undefined {
  let out = '';
  let i = 0;
  const atom = (): string | undefined => {
    const c = pattern[i];
    if (c === undefined) return undefined;
    if (c === '\\') {
      const e = pattern[i + 1];
      i += 2;
      if (e === 'd') return '0';
      if (e === 'w') return 'a';
      if (e === 's') return ' ';
      return e;
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0 || pattern[i + 1] === '^') return undefined;
      const first = pattern[i + 1] === '\\' ? pattern.slice(i + 1, i + 3) : pattern[i + 1];
      i = end + 1;
      return first === '\\d' ? '0' : first === '\\w' ? 'a' : first?.replace('\\', '');
    }
    if (c === '.') {
      i += 1;
      return 'a';
    }
    if ('()|*+?{'.includes(c)) return undefined;
    i += 1;
    return c;
  };
  if (pattern.startsWith('^')) i = 1;
  while (i < pattern.length) {
    if (pattern[i] === '$' && i === pattern.length - 1) break;
    const piece = atom();
    if (piece === undefined) return undefined;
    const q = pattern[i];
    let times = 1;
    if (q === '?' || q === '*') {
      times = 0;
      i += 1;
    } else if (q === '+') i += 1;
    else if (q === '{') {
      const end = pattern.indexOf('}', i);
      const min = Number(pattern.slice(i + 1, end).split(',')[0]);
      if (end < 0 || !Number.isInteger(min)) return undefined;
      times = min;
      i = end + 1;
    }
    out += piece.repeat(times);
  }
  try {
    return new RegExp(pattern, 'u').test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}
