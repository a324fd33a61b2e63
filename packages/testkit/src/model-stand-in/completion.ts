import { asksForQuotes, shapeAnswer } from './cited-answer.ts';
import { asksForDraft, draftAnswer } from './draft-answer.ts';
import { asksForSplit, splitAnswer } from './split-answer.ts';
import { oracleAnswer, readSource } from './oracle/index.ts';
import { sampleValue } from './sample-value.ts';
import type { Behaviour, RecordedImage, RecordedRequest, Usage } from './types.ts';

/*
 * The body of a chat completion the stand-in answers: the output a behaviour gives, shaped for
 * the request (quotes, continuations), cut at the output limit, with OpenAI-like usage.
 */

/**
 * GPT-4.1's output cap in tokens: the oracle stops there as the real model would, so answers
 * too long for one call show up as truncation instead of passing unseen.
 */
const ORACLE_OUTPUT_CAP = 32_768;

export async function oracleBehaviour(
  request: RecordedRequest,
  behaviour: Behaviour,
): Promise<Behaviour> {
  // With citations the oracle fills the output part; quotes, continuations and the output
  // limit are then applied to its answer as to any other (see completion()).
  const schema = request.schema as { properties?: { output?: unknown } } | undefined;
  const target = asksForQuotes(schema) ? schema?.properties?.output : schema;
  // A schema suggestion's drafting call reads the same source, images through tesseract too.
  // A bundle's classification call is answered from its pages' titles, in either mode.
  const output = asksForSplit(target)
    ? splitAnswer(userSourceLines(request).join('\n'))
    : asksForDraft(target)
      ? draftAnswer((await readSource(request.body)).lines)
      : await oracleAnswer(request.body, target);
  const body = (request.body ?? {}) as { max_completion_tokens?: unknown; max_tokens?: unknown };
  const requested = body.max_completion_tokens ?? body.max_tokens;
  const cap =
    typeof requested === 'number' ? Math.min(requested, ORACLE_OUTPUT_CAP) : ORACLE_OUTPUT_CAP;
  return { ...behaviour, output, outputLimit: Math.min(behaviour.outputLimit ?? cap, cap) };
}

export function completion(
  request: RecordedRequest,
  behaviour: Behaviour,
  id: string,
  bodySize: number,
  cachedTokens: number,
) {
  let content: string | null = null;
  let refusal: string | null = null;
  if (behaviour.refuse !== undefined) refusal = behaviour.refuse;
  else if (behaviour.content !== undefined) content = behaviour.content;
  else content = JSON.stringify(shapeAnswer(fullOutput(request, behaviour), request, behaviour));

  let finishReason = behaviour.finishReason ?? 'stop';
  // A model stops writing at its output limit, wherever it is in the JSON.
  if (content !== null && behaviour.outputLimit !== undefined) {
    if (Math.ceil(content.length / CHARS_PER_TOKEN) > behaviour.outputLimit) {
      content = content.slice(0, behaviour.outputLimit * CHARS_PER_TOKEN);
      finishReason = 'length';
    }
  }
  const wantsLogprobs = (request.body as { logprobs?: unknown } | undefined)?.logprobs === true;
  const logprobs =
    wantsLogprobs && behaviour.logprobs !== false && content !== null
      ? { content: tokenLogprobs(content, behaviour.tokenLogprob ?? -0.01), refusal: null }
      : null;

  const usage = estimateUsage(request, bodySize, content ?? refusal ?? '');
  if (cachedTokens > 0)
    usage.prompt_tokens_details = { cached_tokens: Math.min(cachedTokens, usage.prompt_tokens) };
  if (behaviour.usage) {
    // A test's own figures stand alone: no cached part unless it gives one.
    delete usage.prompt_tokens_details;
    Object.assign(usage, behaviour.usage);
    if (behaviour.usage.total_tokens === undefined)
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  }
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? 'unknown',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal, annotations: [] },
        logprobs,
        finish_reason: finishReason,
      },
    ],
    usage,
    system_fingerprint: 'fp_stand_in',
  };
}

/** The whole answer the behaviour gives, before it is shaped for the request. */
function fullOutput(request: RecordedRequest, behaviour: Behaviour): unknown {
  if ('output' in behaviour) return behaviour.output;
  if (behaviour.respond) return behaviour.respond(request);
  const schema = request.schema as { properties?: { output?: unknown } } | undefined;
  const target = asksForQuotes(schema) ? schema?.properties?.output : schema;
  if (asksForDraft(target)) return draftAnswer(userSourceLines(request));
  if (asksForSplit(target)) return splitAnswer(userSourceLines(request).join('\n'));
  return sampleValue(target, schema);
}

/** The lines between <source> and </source> of the user messages (the system prompt names the tags too). */
function userSourceLines(request: RecordedRequest): string[] {
  const text = request.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.text)
    .join('\n');
  const start = text.indexOf('<source>');
  const end = text.lastIndexOf('</source>');
  const inside = start >= 0 && end > start ? text.slice(start + '<source>'.length, end) : text;
  return inside.split(/\r?\n/);
}

/** The stand-in's tokens: short runs of letters or digits, whitespace runs, single symbols. */
function tokenLogprobs(content: string, logprob: number) {
  return (content.match(/[A-Za-z]{1,6}|\d{1,3}|\s+|[^A-Za-z\d\s]/gu) ?? []).map((token) => ({
    token,
    logprob,
    bytes: [...Buffer.from(token, 'utf8')],
    top_logprobs: [],
  }));
}

export const CHARS_PER_TOKEN = 4;

/**
 * Roughly what OpenAI would bill: 4 characters of request text per token, and for images the
 * gpt-4.1 tile formula when the header gave a size (765, a 1024x1024 image, when it did not).
 */
function estimateUsage(request: RecordedRequest, bodySize: number, answer: string): Usage {
  const imageChars = request.images.reduce(
    (sum, image) => sum + Math.ceil((image.bytes * 4) / 3),
    0,
  );
  const imageTokens = request.images.reduce((sum, image) => sum + imageTokenCost(image), 0);
  const prompt = Math.ceil(Math.max(0, bodySize - imageChars) / 4) + imageTokens;
  const completionTokens = Math.max(1, Math.ceil(answer.length / CHARS_PER_TOKEN));
  return {
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
  };
}

function imageTokenCost(image: RecordedImage): number {
  if (image.detail === 'low') return 85;
  if (!image.width || !image.height) return 765;
  let w = image.width;
  let h = image.height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorten = Math.min(1, 768 / Math.min(w, h));
  return 85 + 170 * Math.ceil((w * shorten) / 512) * Math.ceil((h * shorten) / 512);
}
