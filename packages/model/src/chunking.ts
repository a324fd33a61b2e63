import type { ContentPart } from '@xt/contract';

export type PartEstimator = (part: ContentPart) => number;

/**
 * Splits parts into chunks of at most `budget` estimated tokens, in document order. Cuts fall
 * between units (pages, sections) first; a unit too big for one chunk is cut between its parts;
 * a text part too big on its own is cut between paragraphs, then lines, then sentences, then
 * (last resort) characters. An image larger than the budget still gets a chunk of its own:
 * it cannot be cut, and the provider may still accept it.
 */
export function chunkParts(
  parts: ContentPart[],
  budget: number,
  estimate: PartEstimator,
): ContentPart[][] {
  const chunks: ContentPart[][] = [];
  let current: ContentPart[] = [];
  let used = 0;

  const place = (group: ContentPart[], cost: number): void => {
    if (used + cost > budget && current.length > 0) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(...group);
    used += cost;
  };

  for (const group of groupByUnit(parts)) {
    const cost = sum(group.map(estimate));
    if (cost <= budget) {
      place(group, cost);
      continue;
    }
    for (const part of group) {
      for (const piece of splitPart(part, budget, estimate)) place([piece], estimate(piece));
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Consecutive parts of the same unit stay together; parts without a unit stand alone. */
function groupByUnit(parts: ContentPart[]): ContentPart[][] {
  const groups: ContentPart[][] = [];
  let last: ContentPart | undefined;
  for (const part of parts) {
    const group = groups.at(-1);
    if (group && last?.unit !== undefined && part.unit === last.unit) group.push(part);
    else groups.push([part]);
    last = part;
  }
  return groups;
}

const SEPARATORS = [/\n\s*\n/, /\n/, /(?<=[.!?。！？])\s+/];

function splitPart(part: ContentPart, budget: number, estimate: PartEstimator): ContentPart[] {
  if (part.kind !== 'text' || estimate(part) <= budget) return [part];
  const make = (text: string): ContentPart =>
    part.unit === undefined ? { kind: 'text', text } : { kind: 'text', text, unit: part.unit };
  const fits = (text: string): boolean => estimate(make(text)) <= budget;
  return splitText(part.text, fits, 0).map(make);
}

/** Packs the pieces of `text` cut at the first separator level that yields fitting pieces. */
function splitText(text: string, fits: (text: string) => boolean, level: number): string[] {
  if (fits(text)) return [text];
  const separator = SEPARATORS[level];
  if (!separator) return splitByCharacters(text, fits);
  const joiner = level === 0 ? '\n\n' : level === 1 ? '\n' : ' ';
  const pieces = text.split(separator).filter((p) => p.trim() !== '');
  if (pieces.length <= 1) return splitText(text, fits, level + 1);

  const out: string[] = [];
  let current = '';
  for (const piece of pieces) {
    const joined = current ? `${current}${joiner}${piece}` : piece;
    if (fits(joined)) {
      current = joined;
      continue;
    }
    if (current) out.push(current);
    if (fits(piece)) current = piece;
    else {
      out.push(...splitText(piece, fits, level + 1));
      current = '';
    }
  }
  if (current) out.push(current);
  return out;
}

function splitByCharacters(text: string, fits: (text: string) => boolean): string[] {
  const chars = [...text];
  const out: string[] = [];
  let start = 0;
  while (start < chars.length) {
    // binary search the longest slice that fits; at least one character so it always ends
    let lo = start + 1;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(chars.slice(start, mid).join(''))) lo = mid;
      else hi = mid - 1;
    }
    out.push(chars.slice(start, lo).join(''));
    start = lo;
  }
  return out;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
