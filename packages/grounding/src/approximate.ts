import type { SourceIndex } from './source-index.ts';
import { forEachWord } from './source-index.ts';

/*
 * Finding the model's quote where OCR garbled a few characters (`Tota1 1,234.5O`): an
 * approximate substring search (Sellers' dynamic programme with Ukkonen's cut-off), run only over
 * a few windows of the source that the word index points to. Hand-written: the maintained
 * edit-distance packages compare whole strings, not a pattern against any substring of a window.
 */

/** Edits allowed: 15% of the quote's (normalised) characters, none under 8, at most 32. */
export function allowedEdits(length: number): number {
  return length < 8 ? 0 : Math.min(32, Math.floor(length * 0.15));
}

/** Quotes longer than this are only looked for as they are (normalised), never approximately. */
const MAX_APPROXIMATE = 1000;
/** How many of the quote's rarest words vote for where it may be. */
const VOTING_WORDS = 6;
/** Occurrences of one word counted at most (a very common word says little about where). */
const MAX_VOTES_PER_WORD = 5000;
const WINDOWS = 8;
const BUCKET = 32;

export interface ApproximateMatch {
  /** `[start, end)` into the normalised source text. */
  start: number;
  end: number;
  distance: number;
}

/**
 * The best occurrence of `needle` (normalised) in the normalised source within the allowed
 * edits, or null. Work is bounded by the windows: about WINDOWS × (needle + 2·edits) × edits.
 */
export function findApproximately(index: SourceIndex, needle: string): ApproximateMatch | null {
  const k = allowedEdits(needle.length);
  if (k === 0 || needle.length > MAX_APPROXIMATE) return null;
  const text = index.norm.text;
  let best: ApproximateMatch | null = null;
  for (const [from, to] of candidateWindows(index, needle, k)) {
    const found = sellers(needle, text, from, to, best ? best.distance - 1 : k);
    if (found) best = found;
    if (best?.distance === 0) break;
  }
  return best ? trimSpaces(text, best) : null;
}

/** Windows of the source where the quote's rarest intact words line up, best first, merged. */
function candidateWindows(index: SourceIndex, needle: string, k: number): [number, number][] {
  const words: { postings: number[]; offset: number; weight: number }[] = [];
  forEachWord(needle, (word, offset) => {
    const postings = index.words.get(word);
    if (postings) words.push({ postings, offset, weight: word.length });
  });
  words.sort((a, b) => a.postings.length - b.postings.length);
  const votes = new Map<number, number>();
  for (const { postings, offset, weight } of words.slice(0, VOTING_WORDS)) {
    for (let i = 0; i < postings.length && i < MAX_VOTES_PER_WORD; i++) {
      const bucket = Math.floor((postings[i]! - offset) / BUCKET);
      votes.set(bucket, (votes.get(bucket) ?? 0) + weight);
    }
  }
  const top: [number, number][] = [];
  for (const entry of votes) {
    if (top.length < WINDOWS || entry[1] > top[top.length - 1]![1]) {
      top.push(entry);
      top.sort((a, b) => b[1] - a[1]);
      if (top.length > WINDOWS) top.pop();
    }
  }
  const windows = top
    .map(([bucket]): [number, number] => [
      Math.max(0, bucket * BUCKET - k - BUCKET),
      Math.min(index.norm.text.length, (bucket + 2) * BUCKET + needle.length + k),
    ])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const window of windows) {
    const last = merged[merged.length - 1];
    if (last && window[0] <= last[1]) last[1] = Math.max(last[1], window[1]);
    else merged.push(window);
  }
  return merged;
}

/**
 * Sellers: the substring of `text[from, to)` nearest to `pattern` in edit distance, if within
 * `k`. Ukkonen's cut-off computes each column only down to the last row still within `k`, so a
 * window costs about its length × k rather than × the pattern's length.
 */
export function sellers(
  pattern: string,
  text: string,
  from: number,
  to: number,
  k: number,
): ApproximateMatch | null {
  if (k < 0) return null;
  const m = pattern.length;
  const cost = new Int32Array(m + 1);
  const origin = new Int32Array(m + 1);
  for (let i = 0; i <= m; i++) {
    cost[i] = i;
    origin[i] = from;
  }
  let active = Math.min(k, m);
  let best: ApproximateMatch | null = null;
  for (let c = from; c < to; c++) {
    const ch = text[c];
    const limit = Math.min(active + 1, m);
    // Row i - 1 of the previous column, clamped to k + 1 where it was not computed.
    let diagonal = 0;
    let diagonalOrigin = c;
    cost[0] = 0;
    origin[0] = c + 1;
    for (let i = 1; i <= limit; i++) {
      const previous = i <= active ? cost[i]! : k + 1;
      const previousOrigin = origin[i]!;
      let value = diagonal + (pattern[i - 1] === ch ? 0 : 1);
      let start = diagonalOrigin;
      if (previous + 1 < value) {
        value = previous + 1;
        start = previousOrigin;
      }
      if (cost[i - 1]! + 1 < value) {
        value = cost[i - 1]! + 1;
        start = origin[i - 1]!;
      }
      diagonal = previous;
      diagonalOrigin = previousOrigin;
      cost[i] = value;
      origin[i] = start;
    }
    active = limit;
    while (active > 0 && cost[active]! > k) active--;
    if (active === m) {
      const found = { start: origin[m]!, end: c + 1, distance: cost[m]! };
      if (
        !best ||
        found.distance < best.distance ||
        (found.distance === best.distance && closer(found, best, m))
      ) {
        best = found;
      }
    }
  }
  return best;
}

/** Of two equally near matches from one start, the one whose length is nearer the pattern's. */
function closer(a: ApproximateMatch, b: ApproximateMatch, m: number): boolean {
  return a.start === b.start && Math.abs(a.end - a.start - m) < Math.abs(b.end - b.start - m);
}

function trimSpaces(text: string, match: ApproximateMatch): ApproximateMatch {
  let { start, end } = match;
  while (start < end && text[start] === ' ') start++;
  while (end > start && text[end - 1] === ' ') end--;
  return { start, end, distance: match.distance };
}
