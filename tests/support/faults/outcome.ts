/**
 * What every fault scenario asserts once the fault is over: every accepted extraction final and
 * completed, one extraction per Idempotency-Key, charged exactly when completed, model calls as
 * expected, only documented answers, no process dead by itself, and quiet logs.
 */
import { expect } from 'vitest';
import type { FaultClient } from '@xt/testkit/faults';
import type { ExtractionRow, FaultStack } from './stack.ts';

export interface OutcomeOptions {
  /** Answers with no HTTP status are expected (the test killed the API they were sent to). */
  allowNoAnswer?: boolean;
  /** Each extraction reached the model exactly once (no job ran twice). */
  oneModelCallEach?: boolean;
  /** How long after the checks start every row must be final. */
  finalWithinMs?: number;
  /** Warnings any one process may log in the scenario: a few per outage, not one per request. */
  maxWarningsPerProcess?: number;
}

export interface Outcome {
  rows: ExtractionRow[];
  /**
   * How long after `at` (the fault's end) the last extraction created before then became final:
   * the time-to-final of the work the fault met, leaving out what clients submitted afterwards.
   */
  finalAfter(at: number): number;
}

export async function checkOutcome(
  stack: FaultStack,
  client: FaultClient,
  schemaId: string,
  options: OutcomeOptions = {},
): Promise<Outcome> {
  const submissions = await client.stop();
  expect(client.undocumented({ allowNoAnswer: options.allowNoAnswer })).toEqual([]);
  expect(submissions.length).toBeGreaterThan(0);
  expect(submissions.filter((s) => !s.accepted).map((s) => s.answers.at(-1))).toEqual([]);
  // One key, one extraction, however many times it was sent.
  expect(submissions.filter((s) => s.ids.size !== 1).map((s) => [...s.ids])).toEqual([]);

  const rows = await stack.allFinal(schemaId, options.finalWithinMs ?? 90_000);
  const accepted = new Set(submissions.flatMap((s) => [...s.ids]));
  expect(rows.map((r) => r.id).sort()).toEqual([...accepted].sort());
  expect(rows.filter((r) => r.status !== 'completed').map((r) => [r.status, r.errorCode])).toEqual(
    [],
  );
  expect(rows.every((r) => r.charged)).toBe(true);

  const calls = new Map<string, number>();
  for (const request of stack.model.requests) {
    const marker = /Order (\S+):/.exec(request.text)?.[1];
    if (marker !== undefined) calls.set(marker, (calls.get(marker) ?? 0) + 1);
  }
  for (const submission of submissions) {
    const count = calls.get(submission.marker) ?? 0;
    if (options.oneModelCallEach) expect(count, submission.marker).toBe(1);
    else expect(count, submission.marker).toBeGreaterThanOrEqual(1);
  }

  expect(stack.unexpectedExits()).toEqual([]);
  for (const { name, problems } of stack.logs()) {
    expect(problems.stacks, `${name}: stack traces`).toEqual([]);
    expect(problems.errors, `${name}: errors`).toEqual([]);
    expect(problems.warnings.length, `${name}: ${problems.warnings.join('\n')}`).toBeLessThan(
      options.maxWarningsPerProcess ?? 10,
    );
  }
  const finalAfter = (at: number) =>
    Math.max(
      ...rows.filter((r) => r.createdAt.getTime() <= at).map((r) => r.finishedAt?.getTime() ?? 0),
    ) - at;
  return { rows, finalAfter };
}

/** A figure for docs/operations.md, printed so a run shows it (tests assert no timings). */
export function report(figure: string, ms: number): void {
  console.log(`[fault figure] ${figure}: ${(ms / 1000).toFixed(1)} s`);
}
