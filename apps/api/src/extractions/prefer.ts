/**
 * RFC 7240 `Prefer` for the create route: `respond-async` (answer 202 at once) or
 * `wait=<seconds>` (0–300). Preferences the server does not understand are ignored, as the RFC
 * asks; a wait above 300 is honoured as 300.
 */
export interface WaitDecision {
  seconds: number;
  applied: string | null;
}

export const MAX_WAIT_SECONDS = 300;

export function decideWait(prefer: string | undefined, defaultSeconds: number): WaitDecision {
  let respondAsync = false;
  let wait: number | null = null;
  for (const token of (prefer ?? '').split(',')) {
    const [rawName, rawValue] = token
      .split(';')[0]!
      .split('=')
      .map((s) => s.trim());
    const name = rawName?.toLowerCase();
    if (name === 'respond-async') respondAsync = true;
    else if (
      name === 'wait' &&
      rawValue !== undefined &&
      /^\d+$/.test(rawValue.replace(/^"|"$/g, ''))
    )
      wait = Math.min(MAX_WAIT_SECONDS, Number(rawValue.replace(/^"|"$/g, '')));
  }
  if (respondAsync) return { seconds: 0, applied: 'respond-async' };
  if (wait !== null) return { seconds: wait, applied: `wait=${wait}` };
  return { seconds: defaultSeconds, applied: null };
}
