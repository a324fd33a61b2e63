import type { PreparedSource, ModelUsage } from '@xt/contract';
import type { ExtractionWindowRow } from '@xt/db';
import { asFailure } from '../failure-step.ts';
import { mergeAnswers, type CallResult } from '@xt/model';
import type { Structure } from '@xt/contract';
import { joinWindows } from './stored-answer.ts';

export interface MergedWindows {
  answer: CallResult;
  /** The windows' pages as read, in page order: what citations are located in. */
  source: PreparedSource;
  pageImages: Record<string, string> | null;
  tokens: number;
  usage: ModelUsage;
  calls: number;
}

/**
 * The windows' answers as the document's one answer: merged in page order with the merge the
 * chunks use (a row cut at a window's edge joined once, repeated header rows dropped), and
 * checked against the structure. What the windows spent is summed, so the extraction is
 * charged once for all of it; a merge that fails carries that spend, recorded uncharged.
 */
export function mergeWindowsStep(
  structure: Structure,
  windows: ExtractionWindowRow[],
): MergedWindows {
  const joined = joinWindows(windows);
  try {
    return { ...joined, answer: mergeAnswers(structure, joined.answers) };
  } catch (err) {
    const failure = asFailure(err);
    failure.tokens = joined.tokens;
    failure.usage = joined.usage;
    throw failure;
  }
}
