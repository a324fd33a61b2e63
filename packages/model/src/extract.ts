import type { Annotations } from './annotations.ts';
import type { ContentPart, ModelUsage, PreparedSource, PublicModel, Structure } from '@xt/contract';
import { ExtractionFailure, NO_USAGE } from '@xt/contract';
import { mapBounded } from './bounded.ts';
import { chunkParts } from './chunking.ts';
import type { ModelClient } from './client.ts';
import type { Capabilities } from './endpoints/capabilities.ts';
import { contextBudget, type ContextBudget } from './endpoints/context-budget.ts';
import { PromptCut } from './endpoints/prompt-kept.ts';
import { toJsonSchema } from './json-schema.ts';
import { toCitedJsonSchema } from './cited-schema.ts';
import { mergeAnswers, mergePieces } from './merge-answers.ts';
import { pageTracker } from './page-progress.ts';
import { fillAbsentFields } from './normalize.ts';
import { callWithRepairs, type CallResult, type ChatTransport, type Spend } from './model-call.ts';
import { buildMessages } from './prompt.ts';
import { relaxStructure } from './relax.ts';
import { estimatePartTokens, estimateTextTokens } from './tokens.ts';

export interface ExtractInput {
  client: ModelClient;
  model: PublicModel;
  structure: Structure;
  source: PreparedSource;
  instruction?: string | undefined;
  signal?: AbortSignal | undefined;
  /** overrides the client's per-call input budget */
  maxInputTokens?: number | undefined;
  /**
   * What the model can do (docs/models.md): its context window bounds every call's prompt and
   * answer; absent, OpenAI's dialect and the configured budget.
   */
  capabilities?: Capabilities | undefined;
  /**
   * Told what a call taught about the model: a feature its server refused, or the window its
   * server really keeps, so every later call (in any process) is shaped by it.
   */
  onCapabilitiesLearned?: ((capabilities: Capabilities) => void) | undefined;
  /** overrides the client's chunk concurrency */
  concurrency?: number | undefined;
  /** ask for the model's quote beside each value and for token log-probabilities */
  citations?: boolean | undefined;
  /** told the pages finished so far each time a chunk's call answers (page-progress.ts) */
  onPagesDone?: ((pagesDone: number) => void) | undefined;
  /** sends the requests instead of direct calls (a batch round, docs/batch.md) */
  transport?: ChatTransport | undefined;
  /**
   * The source is page window `index` of `count` of a longer document, whose windows other jobs
   * extract (docs/scaling.md#one-large-document): it is answered like a chunk, against the
   * relaxed structure, and the whole document's answer is checked once the windows are merged
   * (mergeAnswers).
   */
  window?: { index: number; count: number } | undefined;
  /**
   * The source is one question that pieces cannot answer (a bundle's pages with the classes
   * they are sorted into): when it does not fit one call within the model's window, the
   * extraction fails with SourceDoesNotFit, before any call, instead of being cut, so the
   * caller can make it smaller.
   */
  indivisible?: boolean | undefined;
}

/** An `indivisible` source larger than one call may carry, however the window was learned. */
export class SourceDoesNotFit extends ExtractionFailure {
  constructor(
    /** the source tokens one call may carry */
    readonly sourceTokens: number,
  ) {
    super(
      'SOURCE_TOO_LARGE',
      `The source does not fit one model call (${sourceTokens} source tokens at most) and cannot be read in pieces.`,
    );
    this.name = 'SourceDoesNotFit';
  }
}

export interface ExtractResult {
  /** shaped by the structure: an object, or an array for an array root */
  output: unknown;
  /** the model's quotes and per-value probabilities, by pointer into `output` */
  annotations: Annotations;
  /** lists the output limit left unfinished after every continuation (pointers) */
  truncated: string[];
  /** every token of every call, repairs and chunks included */
  totalTokens: number;
  /** the same calls' tokens as the provider reported them: input, output, cached input */
  usage: ModelUsage;
  calls: number;
  /** the model's server gives no token probabilities: confidence comes from grounding alone */
  noTokenProbabilities?: boolean;
}

/** Fewest tokens a chunk may hold under the configured budget, however large the fixed part of the prompt. */
const MIN_CHUNK_TOKENS = 1_000;
/** Fewest source tokens worth a call within a model's own window: less, and nothing fits. */
const MIN_CONTEXT_CHUNK_TOKENS = 200;

/**
 * Extracts structured data from a prepared source. A source within the input budget takes one
 * call (plus repairs); a longer one is split at page or section boundaries, the chunks are
 * extracted concurrently against a relaxed structure, and the outputs merged (see merge.ts).
 * Any failure is an ExtractionFailure carrying the tokens spent so far in `tokens`.
 */
export async function extract(input: ExtractInput): Promise<ExtractResult> {
  const spend: Spend = {
    tokens: 0,
    usage: { ...NO_USAGE },
    calls: 0,
    ...(Number.isFinite(input.client.maxExtractionCalls)
      ? { maxCalls: input.client.maxExtractionCalls }
      : {}),
  };
  try {
    const result = await runWithinWindow(input, spend);
    return {
      ...result,
      totalTokens: spend.tokens,
      usage: spend.usage,
      calls: spend.calls,
      ...(input.capabilities && !input.capabilities.logprobs ? { noTokenProbabilities: true } : {}),
    };
  } catch (error) {
    const failure =
      error instanceof ExtractionFailure
        ? error
        : new ExtractionFailure('INTERNAL', 'The extraction failed unexpectedly.', {
            retryable: true,
            cause: error,
          });
    failure.tokens = spend.tokens;
    failure.usage = { ...spend.usage };
    throw failure;
  }
}

/** Times a cut prompt is redone in smaller pieces before the extraction gives up. */
const MAX_RESIZES = 2;

/**
 * Never silently short (docs/models.md): a server that kept only part of a prompt (its own
 * count of prompt tokens far below what was sent) has told the real size of its window; the
 * whole extraction is done again in pieces of that size, and the window is remembered for
 * every later call. A cut that persists fails the extraction, saying so.
 */
async function runWithinWindow(input: ExtractInput, spend: Spend): Promise<CallResult> {
  let current = input;
  for (let resize = 0; ; resize += 1) {
    try {
      return await run(current, spend);
    } catch (error) {
      if (!(error instanceof PromptCut) || !current.capabilities) throw error;
      const known = current.capabilities.contextTokens;
      if (resize >= MAX_RESIZES || (known !== null && error.keptTokens >= known))
        throw new ExtractionFailure(
          'MODEL_CONTEXT_TOO_SMALL',
          `The model's server kept only ${error.keptTokens} of about ${error.sentTokens} prompt tokens, and the prompt could not be made small enough for it: raise its context window (Ollama's num_ctx, llama.cpp's --ctx-size) or set contextTokens for the endpoint (docs/models.md).`,
        );
      const capabilities = { ...current.capabilities, contextTokens: error.keptTokens };
      input.onCapabilitiesLearned?.(capabilities);
      current = { ...current, capabilities };
    }
  }
}

async function run(input: ExtractInput, spend: Spend): Promise<CallResult> {
  const { structure, source } = input;
  const fixed = fixedPromptTokens(input);
  const fit = contextBudget({
    configured: input.maxInputTokens ?? input.client.maxInputTokens,
    capabilities: input.capabilities,
    maxOutputTokens: input.client.maxOutputTokens,
    fixedTokens: fixed,
  });
  // The answer's cap is what the window leaves it: prompt and answer together must fit.
  const client =
    fit.answerTokens === undefined
      ? input.client
      : { ...input.client, maxOutputTokens: fit.answerTokens };
  const providerModel = client.providerModel(input.model);
  const citations = input.citations === true;
  const base = { structure, instruction: input.instruction, meta: source.meta, citations };
  const chunkBudget = chunkTokens(fit);
  const estimate = (part: ContentPart) => estimatePartTokens(input.model, part);
  const chunks = chunkParts(source.parts, chunkBudget, estimate);
  if (input.indivisible && chunks.length > 1) throw new SourceDoesNotFit(chunkBudget);
  checkCeilings(client, chunks, fixed, estimate);

  if (chunks.length <= 1 && !input.window) {
    const answer = await callWithRepairs({
      client,
      providerModel,
      capabilities: input.capabilities,
      onCapabilitiesRefused: input.onCapabilitiesLearned,
      structure,
      messages: buildMessages({ ...base, parts: source.parts }),
      spend,
      signal: input.signal,
      citations,
      transport: input.transport,
    });
    return { ...answer, output: fillAbsentFields(structure, answer.output) };
  }

  const relaxed = relaxStructure(structure);
  const pages = pageTracker(chunks);
  const answers = await mapBounded(
    chunks,
    input.concurrency ?? client.concurrency,
    async (parts, i) => {
      const answer = await callWithRepairs({
        client,
        providerModel,
        capabilities: input.capabilities,
        onCapabilitiesRefused: input.onCapabilitiesLearned,
        structure: relaxed,
        messages: buildMessages({
          ...base,
          // the guidance must describe the relaxed fields, or it would demand required values
          structure: relaxed,
          parts,
          chunk: chunkPosition(i, chunks.length, input.window),
        }),
        spend,
        signal: input.signal,
        citations,
        transport: input.transport,
      });
      input.onPagesDone?.(pages.finish(i));
      return answer;
    },
  );
  // A window's answer is one piece of the document's, checked once the windows are merged.
  if (input.window) return mergePieces(relaxed, answers);
  return mergeAnswers(structure, answers);
}

/**
 * The source tokens one call may carry. With the configured budget alone a chunk keeps a floor
 * (a prompt's fixed part may be large); a model's own window has none: what does not fit it
 * cannot be sent, and the extraction fails saying so rather than sending a prompt the server
 * would cut.
 */
function chunkTokens(fit: ContextBudget): number {
  if (!fit.fromContext) return Math.max(MIN_CHUNK_TOKENS, fit.sourceTokens);
  if (fit.sourceTokens < MIN_CONTEXT_CHUNK_TOKENS)
    throw new ExtractionFailure(
      'MODEL_CONTEXT_TOO_SMALL',
      `The model's context window (${fit.contextTokens} tokens) cannot hold the instructions, the schema, an answer and any of the source: ${fit.fixedTokens} tokens of instructions and schema and ${fit.answerTokens ?? 0} kept for the answer leave ${Math.max(0, fit.sourceTokens)} for the source. Use a model with a larger context, or raise it on the server (docs/models.md).`,
    );
  return fit.sourceTokens;
}

/** Where a chunk stands in the document, as its prompt says: within its window, if any. */
function chunkPosition(i: number, chunks: number, window: ExtractInput['window']) {
  if (window && chunks === 1) return { index: window.index + 1, count: window.count };
  return { index: i + 1, count: chunks };
}

/** The part of every call's prompt that is not source content: rules, guidance, schema. */
/**
 * The cost ceilings, checked before the first call: a source whose chunks alone need more calls,
 * or more input tokens, than an extraction may spend fails now, having spent nothing.
 */
function checkCeilings(
  client: ModelClient,
  chunks: ContentPart[][],
  fixedTokens: number,
  estimate: (part: ContentPart) => number,
): void {
  if (chunks.length > client.maxExtractionCalls)
    throw new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The source needs ${chunks.length} model calls; at most ${client.maxExtractionCalls} are allowed per extraction.`,
    );
  let tokens = 0;
  for (const chunk of chunks) tokens += fixedTokens + chunk.reduce((n, p) => n + estimate(p), 0);
  if (tokens > client.maxExtractionInputTokens)
    throw new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The source needs about ${tokens} input tokens; at most ${client.maxExtractionInputTokens} are allowed per extraction.`,
    );
}

function fixedPromptTokens(input: ExtractInput): number {
  const messages = buildMessages({
    structure: input.structure,
    parts: [],
    instruction: input.instruction,
    meta: input.source.meta,
    chunk: { index: 1, count: 2 },
    citations: input.citations,
  });
  const schema = JSON.stringify(
    input.citations ? toCitedJsonSchema(input.structure) : toJsonSchema(input.structure).schema,
  );
  // ~4 tokens of framing per message
  return estimateTextTokens(JSON.stringify(messages) + schema) + messages.length * 4;
}
