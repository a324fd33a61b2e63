/** Shared number and value formatting of the Markdown and HTML reports. */
export function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

export function signedPct(value: number): string {
  return `${value > 0 ? '+' : ''}${(value * 100).toFixed(1)} pt`;
}

export function usd(value: number | null): string {
  return value === null ? 'n/a (no price for the model)' : `$${value.toFixed(4)}`;
}

export function ms(value: number): string {
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

/** A value as JSON, cut short for a table cell; absence is "(absent)". */
export function shown(value: unknown, max = 80): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** How many mismatches per case the human-readable reports list; the JSON has them all. */
export const MISMATCHES_SHOWN = 20;
