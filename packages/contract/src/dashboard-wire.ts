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
}

/** The usage page's answer: each day of the range, and their sums. */
export interface Usage {
  startDate: string;
  endDate: string;
  days: UsageDay[];
  totals: Omit<UsageDay, 'date'>;
}
