import type { Citation } from '../types.ts';

/** One leaf value of an output, with what the service found for it (if anything). */
export interface ReviewField {
  /** JSON Pointer (RFC 6901) into the output, as `citations` is keyed. */
  pointer: string;
  value: string | number | boolean | null;
  /** Absent for null values: the service cites only values that are there. */
  citation: Citation | undefined;
}

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Every leaf of `output` in its own order (arrays by index), each with its citation. Walking
 * the output rather than the citations lists null values too, so nothing is hidden from review.
 */
export function reviewFields(output: unknown, citations: Record<string, Citation>): ReviewField[] {
  const fields: ReviewField[] = [];
  const walk = (value: unknown, pointer: string) => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${pointer}/${i}`));
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(item, `${pointer}/${escape(key)}`);
    else
      fields.push({
        pointer,
        value: value as ReviewField['value'],
        citation: citations[pointer],
      });
  };
  walk(output, '');
  return fields;
}

/** `/lines/3/amount` as people read it: `lines › 3 › amount`. */
export function readablePath(pointer: string): string {
  if (pointer === '') return '(the whole answer)';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join(' › ');
}

/** Null, or an empty string: the service does not cite it, there being nothing to find. */
export const hasNoValue = (f: ReviewField) =>
  f.value === null || (typeof f.value === 'string' && f.value.trim() === '');

export const isUngrounded = (f: ReviewField) => f.citation !== undefined && !f.citation.grounded;

/** The quote's place in a text source, when its offsets really point at it. */
export function textSpan(
  content: string,
  c: Citation | undefined,
): { start: number; end: number } | undefined {
  if (!c?.grounded || c.start === null || c.end === null) return undefined;
  if (c.start >= c.end || c.end > content.length) return undefined;
  return { start: c.start, end: c.end };
}
