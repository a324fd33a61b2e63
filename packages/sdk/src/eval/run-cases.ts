import type { XtClient } from '../client.ts';
import { ApiError, ExtractionFailedError, XtError } from '../errors.ts';
import type { Extraction } from '../types.ts';
import type { CaseOutcome } from './aggregate.ts';
import { caseSource, type Dataset, type DatasetCase } from './dataset.ts';
import { scoreOutput, type CaseScore } from './score.ts';

export interface RunOptions {
  client: XtClient;
  dataset: Dataset;
  schemaId: string;
  model?: string | undefined;
  instruction?: string | undefined;
  citations: boolean;
  concurrency: number;
  site?: string | undefined;
  /** per case, from submission to a final state */
  timeoutMs: number;
  onCaseDone?: (done: number, total: number) => void;
}

/** Runs every case, `concurrency` at a time, in data set order in the result. */
export async function runCases(options: RunOptions): Promise<CaseOutcome[]> {
  const { cases } = options.dataset;
  const outcomes: CaseOutcome[] = new Array<CaseOutcome>(cases.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      outcomes[index] = await runCase(cases[index]!, options);
      done += 1;
      options.onCaseDone?.(done, cases.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, cases.length) }, worker));
  return outcomes;
}

async function runCase(item: DatasetCase, options: RunOptions): Promise<CaseOutcome> {
  const started = performance.now();
  const base = { case: item.name, output: undefined };
  try {
    const source = await caseSource(item, options.site);
    const params = {
      schemaId: options.schemaId,
      ...source,
      ...(options.model ? { model: options.model } : {}),
      ...(options.instruction ? { instruction: options.instruction } : {}),
      ...(options.citations ? { citations: true } : {}),
      metadata: { eval_case: item.name.slice(0, 500) },
    };
    const result = await options.client.extract(params, { timeoutMs: options.timeoutMs });
    return {
      ...base,
      status: 'completed',
      extractionId: result.id,
      error: null,
      score: scoreOutput(item.expected, result.output),
      tokens: result.totalTokens,
      output: result.output,
      usage: (await spentBy(options.client, result.id))?.usage,
      latencyMs: performance.now() - started,
    };
  } catch (error) {
    // A key the service refuses would refuse every case alike: stop at once.
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) throw error;
    const failure = describe(error);
    const spent = failure.id ? await spentBy(options.client, failure.id) : undefined;
    return {
      ...base,
      status: 'failed',
      extractionId: failure.id,
      error: { code: failure.code, message: failure.message },
      score: nothingMatched(item.expected),
      tokens: spent?.totalTokens ?? 0,
      usage: spent?.usage,
      latencyMs: performance.now() - started,
    };
  }
}

function describe(error: unknown): { id: string | null; code: string; message: string } {
  if (error instanceof ExtractionFailedError) {
    return { id: error.extractionId, code: error.failureCode, message: error.message };
  }
  if (error instanceof ApiError) return { id: null, code: error.code, message: error.message };
  if (error instanceof XtError) return { id: null, code: error.name, message: error.message };
  if (error instanceof Error) return { id: null, code: error.name, message: error.message };
  return { id: null, code: 'ERROR', message: String(error) };
}

/**
 * What the record says was spent: the token total and the provider's split (a failed extraction
 * may still have spent tokens on repairs and chunks before the failure). Undefined when the
 * record cannot be read; `usage` undefined from a service too old to report it.
 */
async function spentBy(
  client: XtClient,
  id: string,
): Promise<{ totalTokens: number; usage: Extraction['usage'] | undefined } | undefined> {
  try {
    const record: Omit<Extraction, 'usage'> & Partial<Pick<Extraction, 'usage'>> =
      await client.extractions.get(id);
    return { totalTokens: record.totalTokens, usage: record.usage };
  } catch {
    return undefined;
  }
}

/** A failed case has no output: even its expected nulls were not found, they were not asked. */
function nothingMatched(expected: unknown): CaseScore {
  const score = scoreOutput(expected, undefined);
  return { ...score, leaves: score.leaves.map((leaf) => ({ ...leaf, matched: false })) };
}
