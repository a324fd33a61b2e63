import type { GroundingSheet } from './content.ts';

/**
 * Answers of the dashboard's own API (`/dashboard/api`, docs/dashboard.md), which only the
 * dashboard app reads: declared once here for the API that sends them and the app that reads
 * them.
 */

/** What the review view needs beside the record (docs/dashboard.md#review-view). */
export interface ExtractionReview {
  /** The schema's name when the extraction was made (it may since have been renamed or deleted). */
  schemaName: string;
  /** 1-based pages with a stored preview, ascending. */
  previewPages: number[];
  /** An email's parts with pages (a PDF attachment): the pages of each with a stored preview. */
  partPreviews: Record<string, number[]>;
  /** A spreadsheet: whether the cells around its cited cells are stored (`SheetExcerpt`). */
  cells: boolean;
}

/**
 * The `page_images` key of a spreadsheet's stored cells around its cited cells: no page key
 * (digits first) can be it, and the sweeps remove it with the previews.
 */
export const CELLS_KEY = 'cells';

/**
 * The cells of a spreadsheet around its cited cells, as the worker stored them for the review
 * view (docs/citations.md#review-view): each sheet with a cited cell, its header rows and the
 * rows near each cited cell, every cell of those rows as displayed.
 */
export interface SheetExcerpt {
  sheets: GroundingSheet[];
}

/**
 * How `page_images` names a stored preview: the page (`"3"`), or for a page of an email's part
 * the page and the part (`"3:invoice.pdf"`; a part's name may hold any character, a page none
 * but digits, so the first `:` divides them).
 */
export function previewKey(page: number, part?: string): string {
  return part === undefined ? String(page) : `${page}:${part}`;
}

export function parsePreviewKey(key: string): { page: number; part?: string } | undefined {
  const match = /^([1-9]\d{0,5})(?::([\s\S]+))?$/.exec(key);
  if (!match) return undefined;
  const page = Number(match[1]);
  return match[2] === undefined ? { page } : { page, part: match[2] };
}

/** One UTC day of an account's usage. */
export interface UsageDay {
  date: string;
  extractions: number;
  charged: number;
  failed: number;
  tokens: number;
  /** Tokens of completed extractions: what the account pays for. */
  chargedTokens: number;
  /**
   * Tokens spent on extractions that were not charged (failed, or retried and still running):
   * the operator's spend, shown so it is seen.
   */
  unchargedTokens: number;
  /** What the day's tokens cost at the prices in force when they were spent (docs/cost.md). */
  costUsd: number;
  /** Extractions answered by reuse, and what the originals they copied cost. */
  reused: number;
  /** What reuse and the batch price saved. */
  savedUsd: number;
}

/** One schema's share of the range (by the schema's name when the extraction was made). */
export interface UsageBySchema {
  /** null: the classification calls of bundles split into their documents (docs/split.md) */
  schemaId: string | null;
  schemaName: string;
  extractions: number;
  tokens: number;
  costUsd: number;
  reused: number;
  savedUsd: number;
}

/** The usage page's answer: each day of the range, their sums, and each schema's share. */
export interface Usage {
  startDate: string;
  endDate: string;
  days: UsageDay[];
  totals: Omit<UsageDay, 'date'>;
  /** the costliest first */
  schemas: UsageBySchema[];
}
