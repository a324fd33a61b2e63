import type { PreparedSource } from '@xt/contract';

/*
 * The bytes of a PDF or image source, kept beside its prepared form while its job runs, so the
 * cited pages can be drawn once the answer is grounded. Preparation hands its own copy to a prep
 * thread (moved, not copied), and nothing else keeps a fetched file: a URL source could change
 * if fetched again. Held only when citations were asked for, and only as long as the prepared
 * source itself (a WeakMap, so the job's end frees them).
 */
const kept = new WeakMap<PreparedSource, Uint8Array>();

export function keepSourceBytes<T extends PreparedSource>(source: T, bytes: Uint8Array): T {
  kept.set(source, bytes);
  return source;
}

export function sourceBytesOf(source: PreparedSource): Uint8Array | undefined {
  return kept.get(source);
}
