import pTimeout from 'p-timeout';

/** A dependency check: resolves when the dependency is usable, rejects (or throws) when not. */
export type Probe = () => Promise<unknown>;

/**
 * Runs every probe at once, each bounded by `timeoutMs`, and says which answered. A readiness
 * endpoint reports the map as it is, so an operator sees which dependency failed.
 */
export async function probeAll<K extends string>(
  probes: Record<K, Probe>,
  timeoutMs = 2000,
): Promise<{ ok: boolean; checks: Record<K, boolean> }> {
  const names = Object.keys(probes) as K[];
  const settled = await Promise.allSettled(
    names.map((name) =>
      pTimeout(Promise.resolve().then(probes[name]), { milliseconds: timeoutMs }),
    ),
  );
  const checks = {} as Record<K, boolean>;
  names.forEach((name, i) => {
    checks[name] = settled[i]?.status === 'fulfilled';
  });
  return { ok: names.every((name) => checks[name]), checks };
}
