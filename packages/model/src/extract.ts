import type { PreparedSource, PublicModel, Structure } from '@xt/contract';
import { ExtractionFailure } from '@xt/contract';
import { mapBounded } from './bounded.ts';
import { chunkParts } from './chunking.ts';
import type { ModelClient } from './client.ts';
import { toJsonSchema } from './json-schema.ts';
import { mergeOutputs } from './merge.ts';
import { fillAbsentFields } from './normalize.ts';
import { callWithRepairs, type Spend } from './model-call.ts';
import { buildMessages } from './prompt.ts';
import { relaxStructure } from './relax.ts';
import { estimatePartTokens, estimateTextTokens } from './tokens.ts';
import { validateOutput } from './validate-output.ts';

export interface ExtractInput {
  client: ModelClient;
  model: PublicModel;
  structure: Structure;
  source: PreparedSource;
  instruction?: string | undefined;
  signal?: AbortSignal | undefined;
  /** overrides the client's per-call input budget */
  maxInputTokens?: number | undefined;
  /** overrides the client's chunk concurrency */
  concurrency?: number | undefined;
}

export interface ExtractResult {
  /** shaped by the structure: an object, or an array for an array root */
  output: unknown;
  /** every token of every call, repairs and chunks included */
  totalTokens: number;
  calls: number;
}

/** Fewest tokens a chunk may hold, however large the fixed part of the prompt. */
const MIN_CHUNK_TOKENS = 1_000;

/**
 * Extracts structured data from a prepared source. A source within the input budget takes one
 * call (plus repairs); a longer one is split at page or section boundaries, the chunks are
 * extracted concurrently against a relaxed structure, and the outputs merged (see merge.ts).
 * Any failure is an ExtractionFailure carrying the tokens spent so far in `tokens`.
 */
export async function extract(input: ExtractInput): Promise<ExtractResult> {
  const spend: Spend = { tokens: 0, calls: 0 };
  try {
    const output = await run(input, spend);
    return { output, totalTokens: spend.tokens, calls: spend.calls };
  } catch (error) {
    const failure =
      error instanceof ExtractionFailure
        ? error
        : new ExtractionFailure('INTERNAL', 'The extraction failed unexpectedly.', {
            retryable: true,
            cause: error,
          });
    failure.tokens = spend.tokens;
    throw failure;
  }
}

async function run(input: ExtractInput, spend: Spend): Promise<unknown> {
  const { client, structure, source } = input;
  const providerModel = client.providerModel(input.model);
  const base = { structure, instruction: input.instruction, meta: source.meta };

  const budget = input.maxInputTokens ?? client.maxInputTokens;
  const chunkBudget = Math.max(MIN_CHUNK_TOKENS, budget - fixedPromptTokens(input));
  const chunks = chunkParts(source.parts, chunkBudget, (part) =>
    estimatePartTokens(input.model, part),
  );

  if (chunks.length <= 1) {
    const output = await callWithRepairs({
      client,
      providerModel,
      structure,
      messages: buildMessages({ ...base, parts: source.parts }),
      spend,
      signal: input.signal,
    });
    return fillAbsentFields(structure, output);
  }

  const relaxed = relaxStructure(structure);
  const outputs = await mapBounded(chunks, input.concurrency ?? client.concurrency, (parts, i) =>
    callWithRepairs({
      client,
      providerModel,
      structure: relaxed,
      messages: buildMessages({
        ...base,
        // the guidance must describe the relaxed fields, or it would demand required values
        structure: relaxed,
        parts,
        chunk: { index: i + 1, count: chunks.length },
      }),
      spend,
      signal: input.signal,
    }),
  );
  const merged = mergeOutputs(structure, outputs);
  const errors = validateOutput(structure, merged);
  if (errors.length > 0) {
    throw new ExtractionFailure(
      'OUTPUT_INVALID',
      `The merged output of ${chunks.length} parts does not match the structure: ${errors
        .slice(0, 5)
        .map((e) => `${e.field} ${e.message}`)
        .join('; ')}`,
    );
  }
  return merged;
}

/** The part of every call's prompt that is not source content: rules, guidance, schema. */
function fixedPromptTokens(input: ExtractInput): number {
  const messages = buildMessages({
    structure: input.structure,
    parts: [],
    instruction: input.instruction,
    meta: input.source.meta,
    chunk: { index: 1, count: 2 },
  });
  const schema = JSON.stringify(toJsonSchema(input.structure).schema);
  // ~4 tokens of framing per message
  return estimateTextTokens(JSON.stringify(messages) + schema) + messages.length * 4;
}
