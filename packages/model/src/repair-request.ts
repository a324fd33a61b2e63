/*
 * What the service says to the model when an answer has to be given again. Kept apart from the
 * call loop so that the pipeline version (pipeline-version.ts) reads the same text the calls
 * send.
 */

const MAX_ERRORS_SHOWN = 30;

/** Sent after an answer the output limit cut off before its JSON ended. */
export const CUT_OFF_REQUEST =
  'Your previous answer was cut off by the output limit before the JSON ended. Answer again with the complete JSON.';

/** Sent after an answer that is not JSON or breaks the structure, listing what is wrong. */
export function repairRequest(problems: string[]): string {
  const shown = problems.slice(0, MAX_ERRORS_SHOWN).map((p) => `- ${p}`);
  if (problems.length > MAX_ERRORS_SHOWN)
    shown.push(`- and ${problems.length - MAX_ERRORS_SHOWN} more`);
  return `Your previous answer does not match the required structure:\n${shown.join('\n')}\nAnswer again with the complete corrected JSON. Remember: use null for optional values the source does not contain; never invent values.`;
}
