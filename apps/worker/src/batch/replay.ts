import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ExtractionFailure, NO_USAGE, type ModelUsage } from '@xt/contract';
import { addUsage, markReplayed, type ChatTransport, type ExtractResult } from '@xt/model';
import type { ChatCompletion } from 'openai/resources/chat/completions';

/** A request's custom_id: its body's hash, so the same request is the same line in any round. */
export function customId(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 48);
}

export type ReplayOutcome =
  /** `batchUsage`: the part of the result's usage the batch interface answered (not standard calls) */
  | { kind: 'done'; result: ExtractResult; batchUsage: ModelUsage }
  /**
   * the requests no round has answered yet, by custom_id; `answered`: the standard calls this
   * run made (lines the provider failed), kept with the next round so no later run sends them
   * again
   */
  | { kind: 'needs'; requests: Record<string, unknown>; answered: Record<string, StandardAnswer> };

/** A request a standard call answered, as a round keeps it beside the batch's answers. */
interface StandardAnswer {
  standard: ChatCompletion;
}

const isAnswer = (value: unknown): value is ChatCompletion =>
  typeof value === 'object' && value !== null && 'choices' in value;

const isStandardAnswer = (value: unknown): value is StandardAnswer =>
  typeof value === 'object' && value !== null && isAnswer((value as StandardAnswer).standard);

/**
 * Runs the extraction's calls against what earlier rounds answered (docs/batch.md). The model
 * layer is deterministic given its answers, so running it again asks the same requests and
 * takes the same answers: a request answered before gets its answer back, one never sent is
 * held (it goes in the next round), and once every open call waits on a held request the run is
 * stopped and those requests are the next round. Continuations and repairs are requests that
 * only exist once earlier answers came, so they go in later rounds by themselves.
 *
 * `standard` sends a request as a direct call: for a line the provider failed, and for every
 * request not yet answered once `standardNow` (past the window's fallback, or no batch
 * interface). A failed line's standard answer is handed back with the next round's requests
 * (`answered`) and replayed from `answers` as `{ standard }` afterwards: sent once, paid once.
 *
 * Each call is priced by how it was sent (docs/cost.md), so the usage of the answers taken from
 * earlier rounds is summed apart: `batchUsage` on the outcome, and on an ExtractionFailure.
 */
export async function replay(
  run: (transport: ChatTransport, signal: AbortSignal) => Promise<ExtractResult>,
  answers: Record<string, unknown>,
  standard: ChatTransport,
  standardNow: boolean,
  signal: AbortSignal,
  /**
   * the custom_ids the newest round answered: the first run to take them counts them as model
   * calls (metrics); earlier rounds' answers were counted by the runs that took them first
   */
  fresh: ReadonlySet<string> = new Set(Object.keys(answers)),
): Promise<ReplayOutcome> {
  const held: Record<string, unknown> = {};
  let heldCount = 0;
  let direct = 0;
  const batchUsage: ModelUsage = { ...NO_USAGE };
  const answered: Record<string, StandardAnswer> = {};
  const stop = new AbortController();
  const inner = AbortSignal.any([signal, stop.signal]);

  const transport: ChatTransport = async (body, callSignal) => {
    const id = customId(body);
    const known = answers[id];
    if (isAnswer(known)) {
      addUsage(batchUsage, known.usage);
      const answer = structuredClone(known);
      return fresh.has(id) ? answer : markReplayed(answer);
    }
    // Counted as a call by the run that made it.
    if (isStandardAnswer(known)) return markReplayed(structuredClone(known.standard));
    if (known !== undefined || standardNow) {
      direct += 1;
      try {
        const answer = await standard(body, callSignal);
        answered[id] = { standard: answer };
        return answer;
      } finally {
        direct -= 1;
      }
    }
    if (!(id in held)) heldCount += 1;
    held[id] = body;
    return new Promise<ChatCompletion>((_, reject) => {
      const abort = () => reject(inner.reason as Error);
      if (inner.aborted) abort();
      else inner.addEventListener('abort', abort, { once: true });
    });
  };

  let settled: { ok: true; result: ExtractResult } | { ok: false; error: unknown } | undefined;
  const running = run(transport, inner).then(
    (result) => (settled = { ok: true, result }),
    (error: unknown) => (settled = { ok: false, error }),
  );
  // Quiet: two turns of the event loop with nothing running but held requests. The model layer
  // does nothing between calls but compute, so nothing more will be asked.
  let quietTurns = 0;
  let seen = -1;
  while (!settled) {
    await nextTurn();
    if (settled) break;
    if (direct > 0 || heldCount === 0 || heldCount !== seen) {
      quietTurns = 0;
      seen = heldCount;
      continue;
    }
    if (++quietTurns < 2) continue;
    stop.abort(new Error('waiting for the next batch round'));
    await running;
    return { kind: 'needs', requests: held, answered };
  }
  if (settled.ok) return { kind: 'done', result: settled.result, batchUsage };
  if (settled.error instanceof ExtractionFailure) settled.error.batchUsage = batchUsage;
  throw settled.error;
}
