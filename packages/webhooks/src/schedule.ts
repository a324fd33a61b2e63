/**
 * How long to wait before each retry of a failed delivery. Growing delays that add up to about
 * a day (23 h 52 min after the first attempt), with the first retry within 10 seconds and the
 * second within a minute, so a receiver that blinked gets its events almost at once.
 */
export const DEFAULT_RETRY_DELAYS = '5s,30s,2m,5m,15m,30m,1h,2h,4h,8h,8h';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `5s,30s,2m` → milliseconds; throws naming the bad entry. */
export function parseRetryDelays(spec: string): number[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(entry);
      if (!match) throw new Error(`"${entry}" is not a duration such as 500ms, 5s, 2m or 1h`);
      return Math.round(Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1));
    });
}

/**
 * The delay before retry number `retry` (1 for the first retry), with up to 10% taken off at
 * random so that receivers coming back from an outage are not hit by every retry at once.
 */
export function retryDelay(delays: readonly number[], retry: number, random = Math.random): number {
  const base = delays[Math.min(Math.max(retry, 1), delays.length) - 1] ?? 0;
  return Math.round(base * (1 - 0.1 * random()));
}
