import type { FieldError, Structure } from '@xt/contract';
import { ExtractionFailure } from '@xt/contract';
import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionTokenLogprob,
} from 'openai/resources/chat/completions';
import { leafProbabilities } from '@xt/grounding';
import { carry, keepPresent, noAnnotations, type Annotations } from './annotations.ts';
import { OUTPUT_KEY, QUOTES_KEY, readQuotes, toCitedJsonSchema } from './cited-schema.ts';
import type { ModelCallOutcome } from './client.ts';
import { appendContinuation, continuationMessages, type Cut } from './continuation.ts';
import { toJsonSchema, WRAP_KEY } from './json-schema.ts';
import { readPartialAnswer } from './partial-answer.ts';
import { isWithin, valueAt } from './pointers.ts';
import { relaxStructure } from './relax.ts';
import { CUT_OFF_REQUEST, repairRequest } from './repair-request.ts';
import { validateOutput } from './validate-output.ts';
import { readJsonAnswer } from './endpoints/read-answer.ts';
import { send, type ModelCallInput } from './model-send.ts';

export type { ChatTransport, ModelCallInput, Spend } from './model-send.ts';

const REPLAYED = Symbol('replayed');

/**
 * Marks a transport's answer as one an earlier run of the extraction already received and
 * counted (a batch round's answer taken again, docs/batch.md): the model layer uses it as any
 * answer, but does not report it to `onCall` (the model-call metrics) a second time.
 */
export function markReplayed(completion: ChatCompletion): ChatCompletion {
  Object.defineProperty(completion, REPLAYED, { value: true });
  return completion;
}

export interface CallResult {
  output: unknown;
  /** quotes and probabilities by pointer into `output` (empty without citations) */
  annotations: Annotations;
  /** lists still cut off when the continuation bound was reached (pointers into `output`) */
  truncated: string[];
}

type Answer =
  | { kind: 'complete'; output: unknown; annotations: Annotations }
  | { kind: 'cut'; output: unknown; annotations: Annotations; cut: Cut }
  /** a continuation cut off again before it completed a single item */
  | { kind: 'stalled' };

/**
 * One model call plus up to `maxRepairs` repair calls: an answer that is not JSON or breaks the
 * structure is sent back with what is wrong, and the model answers again. An answer the output
 * limit cut off inside a list is continued instead (docs/citations.md): the complete items
 * are kept and the model is asked for the items after the last one, up to `maxContinuations`
 * times; a list still unfinished then is named in `truncated`, never silently shortened.
 */
export async function callWithRepairs(input: ModelCallInput): Promise<CallResult> {
  const first = await answer(input, input.structure, input.messages, false);
  if (first.kind === 'stalled') throw new Error('a first answer is repaired, never stalled');
  if (first.kind === 'complete')
    return { output: first.output, annotations: first.annotations, truncated: [] };
  let kept = first.output;
  let annotations = first.annotations;
  let cut = first.cut;
  // Continuations ask for part of the answer: every field may be absent from it.
  const relaxed = relaxStructure(input.structure);
  for (let round = 1; round <= input.client.maxContinuations; round += 1) {
    const next = await answer(
      input,
      relaxed,
      continuationMessages(input.messages, cut, kept),
      true,
    );
    if (next.kind === 'stalled') break;
    const before = listLength(kept, cut);
    const { merged, moves } = appendContinuation(kept, next.output, cut);
    annotations = carry([annotations, next.annotations], moves);
    kept = merged;
    if (next.kind === 'complete') {
      const errors = validateOutput(input.structure, kept);
      if (errors.length > 0) throw invalidOutput(errors.map(formatError), 'continued');
      return { output: kept, annotations, truncated: [] };
    }
    // A continuation that added nothing to the same list would only repeat itself.
    if (next.cut.pointer === cut.pointer && listLength(kept, cut) === before) break;
    cut = next.cut;
  }
  return { output: kept, annotations, truncated: [cut.pointer] };
}

/**
 * One answer to `base`, repaired until it is valid: complete, or cut off inside a list after
 * at least one complete item (`cut`). A cut that leaves nothing to continue from is repaired
 * like any invalid answer, or, in a continuation, reported as `stalled`.
 */
async function answer(
  input: ModelCallInput,
  structure: Structure,
  base: ChatCompletionMessageParam[],
  continuing: boolean,
): Promise<Answer> {
  const { client } = input;
  const plain = toJsonSchema(structure);
  const schema = input.citations ? toCitedJsonSchema(structure) : plain.schema;
  // Where the output sits in the JSON the model writes.
  const outputAt = input.citations ? `/${OUTPUT_KEY}` : plain.wrapped ? `/${WRAP_KEY}` : '';
  const messages = [...base];
  let problems: string[] = [];

  for (let attempt = 0; attempt <= client.maxRepairs; attempt += 1) {
    const completion = await send(input, messages, schema);
    const choice = completion.choices[0];
    const message = choice?.message;
    const record = (outcome: ModelCallOutcome) => {
      if (REPLAYED in completion) return;
      client.onCall({
        model: input.providerModel,
        outcome,
        promptTokens: completion.usage?.prompt_tokens ?? 0,
        completionTokens: completion.usage?.completion_tokens ?? 0,
      });
    };
    if (message?.refusal || choice?.finish_reason === 'content_filter') {
      record('refused');
      throw new ExtractionFailure(
        'MODEL_REFUSED',
        `The model refused to extract from this source${message?.refusal ? `: ${message.refusal.slice(0, 500)}` : '.'}`,
      );
    }
    let content = message?.content ?? '';
    let tokens = choice?.logprobs?.content ?? undefined;
    let value: unknown;
    if (choice?.finish_reason === 'length') {
      record('truncated');
      const partial = readCut(content, outputAt);
      if (partial.kind === 'cut') {
        const output = outputOf(partial.value, outputAt);
        return {
          kind: 'cut',
          output,
          cut: { pointer: partial.pointer },
          annotations: annotate(input, partial.value, output, content, tokens),
        };
      }
      if (partial.kind === 'none') {
        if (continuing) return { kind: 'stalled' };
        problems = ['the answer was cut off by the output limit before the JSON ended'];
        messages.push({ role: 'user', content: CUT_OFF_REQUEST });
        continue;
      }
      // The output itself was complete; only the quotes after it were cut.
      value = partial.value;
    } else {
      const parsed = readJsonAnswer(content);
      if (!parsed.ok) problems = [`the answer is not valid JSON (${parsed.error})`];
      else {
        value = parsed.value;
        // JSON read out of prose or a fence: its probabilities are those of the tokens that
        // wrote the JSON alone, and a repair quotes the JSON read.
        if (parsed.at) {
          if (tokens) tokens = tokensWithin(tokens, parsed.at.start, parsed.at.end);
          content = content.slice(parsed.at.start, parsed.at.end);
        }
      }
    }
    if (value !== undefined) {
      const output = outputOf(value, outputAt);
      const errors = validateOutput(structure, output);
      if (errors.length === 0) {
        record('ok');
        return {
          kind: 'complete',
          output,
          annotations: annotate(input, value, output, content, tokens),
        };
      }
      problems = errors.map(formatError);
    }
    record('invalid');
    messages.push({ role: 'assistant', content });
    messages.push({ role: 'user', content: repairRequest(problems) });
  }
  throw invalidOutput(
    problems,
    `still did not match the structure after ${client.maxRepairs} repairs`,
  );
}

function invalidOutput(problems: string[], what: string): ExtractionFailure {
  return new ExtractionFailure(
    'OUTPUT_INVALID',
    what === 'continued'
      ? `The model's continued answer does not match the structure: ${problems.slice(0, 5).join('; ')}`
      : `The model's answer ${what}: ${problems.slice(0, 5).join('; ')}`,
  );
}

type CutAnswer =
  | { kind: 'cut'; value: unknown; pointer: string }
  | { kind: 'complete'; value: unknown }
  | { kind: 'none' };

/**
 * What can be kept of an answer cut off at the output limit: the complete items of the
 * outermost list being written inside the output, or everything when the output was finished
 * and only the quotes after it were cut.
 */
function readCut(content: string, outputAt: string): CutAnswer {
  const partial = readPartialAnswer(content);
  const open = partial.open;
  const outputOpen = open.findIndex((frame) => frame.pointer === outputAt);
  if (outputOpen === -1) {
    return open.length === 0
      ? { kind: 'none' }
      : { kind: 'complete', value: partial.closeAt(open.length - 1) };
  }
  const list = open.findIndex((frame, i) => i >= outputOpen && frame.kind === 'array');
  const frame = open[list];
  if (!frame || frame.complete === 0) return { kind: 'none' };
  return {
    kind: 'cut',
    value: partial.closeAt(list),
    pointer: frame.pointer.slice(outputAt.length),
  };
}

function outputOf(value: unknown, outputAt: string): unknown {
  if (outputAt === '') return value;
  // Some compatible servers answer a root list bare, without the wrapper it was asked for.
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return outputAt === `/${WRAP_KEY}` ? value : undefined;
  return valueAt(value, outputAt);
}

function listLength(output: unknown, cut: Cut): number {
  const list = valueAt(output, cut.pointer);
  return Array.isArray(list) ? list.length : 0;
}

/** The quotes beside the output and the output's per-value probabilities, with citations. */
function annotate(
  input: ModelCallInput,
  value: unknown,
  output: unknown,
  content: string,
  tokens: ChatCompletionTokenLogprob[] | undefined,
): Annotations {
  if (!input.citations) return noAnnotations();
  const quotes = readQuotes(valueAt(value, `/${QUOTES_KEY}`), output);
  const probabilities =
    tokens && tokens.length > 0 ? outputProbabilities(content, tokens) : undefined;
  return keepPresent({ quotes, probabilities }, output);
}

/** Per-value probabilities of the answer, keyed into the output rather than the wrapper. */
function outputProbabilities(
  content: string,
  tokens: ChatCompletionTokenLogprob[],
): Map<string, number> | undefined {
  let all: Map<string, number>;
  try {
    all = leafProbabilities(
      content,
      tokens.map(({ token, logprob }) => ({ token, logprob })),
    );
  } catch {
    // Tokens that do not spell the content (a provider's quirk): no figure rather than a wrong one.
    return undefined;
  }
  const prefix = `/${OUTPUT_KEY}`;
  const out = new Map<string, number>();
  for (const [pointer, probability] of all)
    if (isWithin(pointer, prefix) && pointer !== prefix)
      out.set(pointer.slice(prefix.length), probability);
  return out;
}

function formatError(error: FieldError): string {
  return `${error.field} ${error.message}`;
}

/**
 * The tokens that spell `text.slice(start, end)` of the text they spell together, the first and
 * last cut to the span: a token that also wrote prose keeps its probability, as the whole of the
 * token was one choice of the model.
 */
function tokensWithin(
  tokens: ChatCompletionTokenLogprob[],
  start: number,
  end: number,
): ChatCompletionTokenLogprob[] {
  const out: ChatCompletionTokenLogprob[] = [];
  let at = 0;
  for (const token of tokens) {
    const from = at;
    at += token.token.length;
    if (at <= start || from >= end) continue;
    const text = token.token.slice(
      Math.max(0, start - from),
      Math.min(token.token.length, end - from),
    );
    out.push({ ...token, token: text });
  }
  return out;
}
