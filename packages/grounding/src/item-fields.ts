import { escapeToken } from './pointer.ts';
import type { Occurrences } from './occurrences.ts';

/*
 * The values of a list's object items, as placement.ts weighs them: each scalar field with its
 * occurrences, and which fields say nothing about an item's row.
 */

export type Scalar = string | number | boolean;

/** Nesting past which values are located one by one, so that no answer can exhaust the stack. */
export const MAX_DEPTH = 64;

/** An empty string is no value, as null is: there is nothing to find, and nothing is missing. */
export function isNoValue(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

export const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

export interface Field {
  pointer: string;
  value: Scalar;
  occurrences: Occurrences;
  /** The model's quote, the evidence of a value not written as such (a boolean, a paraphrase). */
  quote: string | null;
  /** Whether it says which row its item is on (see sharedValues). */
  votes: boolean;
}

/**
 * The scalar fields of an object item (nested objects included), and what is placed apart: the
 * lists inside it (after it, from where it was found), and objects nested past MAX_DEPTH.
 */
export function fieldsOf(
  item: object,
  depth: number,
  visit: (relative: string, value: Scalar) => void,
  apart?: (relative: string, value: unknown) => void,
): void {
  const walkItem = (value: unknown, relative: string, level: number) => {
    if (isNoValue(value)) return;
    if (isScalar(value)) visit(relative, value);
    else if (Array.isArray(value) || level > MAX_DEPTH) apart?.(relative, value);
    else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value))
        walkItem(child, `${relative}/${escapeToken(key)}`, level + 1);
    }
  };
  walkItem(item, '', depth);
}

/**
 * Fields with the same value in every item of a list (a currency, a category) say nothing about
 * which row an item is on: one written once in a heading would otherwise pull every item there.
 */
export function sharedValues(items: unknown[], depth: number): Set<string> {
  const shared = new Set<string>();
  if (items.length < 2) return shared;
  const seen = new Map<string, { value: Scalar; count: number; same: boolean }>();
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return shared;
    fieldsOf(item, depth, (relative, value) => {
      const entry = seen.get(relative);
      if (!entry) seen.set(relative, { value, count: 1, same: true });
      else {
        entry.count += 1;
        if (entry.value !== value) entry.same = false;
      }
    });
  }
  for (const [relative, entry] of seen)
    if (entry.same && entry.count === items.length) shared.add(relative);
  return shared;
}
