/**
 * A seeded generator (mulberry32): the same seed makes the same data set byte for byte, on any
 * machine. Hand-written because it is five lines and Math.random cannot be seeded.
 */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number): number => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

export type Random = ReturnType<typeof seeded>;

/** Cents as a number with two decimals, without float noise. */
export function money(cents: number): number {
  return Math.round(cents) / 100;
}

export function fixed2(value: number): string {
  return value.toFixed(2);
}

export function isoDay(start: Date, offsetDays: number): string {
  return new Date(start.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}
