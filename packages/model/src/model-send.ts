import type { ModelUsage, Structure } from '@xt/contract';
import { ExtractionFailure } from '@xt/contract';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { chatRequest } from './chat-request.ts';
import type { ModelClient, ScheduledCall } from './client.ts';
import type { Capabilities } from './endpoints/capabilities.ts';
import { whileLoading } from './endpoints/loading.ts';
import { checkPromptKept, promptTokensOf } from './endpoints/prompt-kept.ts';
import { downgrade, refusedCapability } from './endpoints/refusals.ts';
import { providerFailure } from './provider-errors.ts';
import { addUsage } from './usage.ts';

/*
 * One request of a model call on its way to the model and back: the call ceiling, the deadline,
 * a loading server waited for, a refused feature dropped once, the spend counted
 * (model-call.ts holds what is asked and what the answer is checked against).
 */

/** Tokens and calls spent by one extraction, shared by all its calls (chunks and repairs). */
export interface Spend {
  tokens: number;
  /** `tokens` as the provider split it: input, output, and the cached part of the input */
  usage: ModelUsage;
  calls: number;
  /** No call is made past this many (MAX_MODEL_CALLS_PER_EXTRACTION). */
  maxCalls?: number;
}

export interface ModelCallInput {
  client: ModelClient;
  providerModel: string;
  /** what the answer is validated against */
  structure: Structure;
  messages: ChatCompletionMessageParam[];
  spend: Spend;
  signal?: AbortSignal | undefined;
  /** ask for the model's quote beside each value and for token log-probabilities */
  citations?: boolean | undefined;
  /** sends each request instead of a direct call (a batch round, docs/batch.md) */
  transport?: ChatTransport | undefined;
  /** what the model can do (docs/models.md); absent: OpenAI's dialect */
  capabilities?: Capabilities | undefined;
  /** told when a server refused a feature and the call went again without it */
  onCapabilitiesRefused?: ((weaker: Capabilities) => void) | undefined;
}

/**
 * How a request body reaches the model when not by a direct call: a batch extraction answers
 * it from a batch round, or holds it for the next one (docs/batch.md).
 */
export type ChatTransport = (
  body: ChatCompletionCreateParamsNonStreaming,
  signal: AbortSignal | undefined,
) => Promise<ChatCompletion>;

export async function send(
  input: ModelCallInput,
  messages: ChatCompletionMessageParam[],
  schema: Record<string, unknown>,
): Promise<ChatCompletion> {
  const { client, spend } = input;
  if (spend.maxCalls !== undefined && spend.calls >= spend.maxCalls)
    throw new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The extraction needed more than ${spend.maxCalls} model calls, the most allowed per extraction.`,
    );
  let completion: ChatCompletion;
  let body: ChatCompletionCreateParamsNonStreaming | undefined;
  const request = () => {
    body = chatRequest(
      client,
      { providerModel: input.providerModel, messages, schema, citations: input.citations },
      input.capabilities,
    );
    const sent = body;
    const { transport } = input;
    if (transport) return transport(sent, input.signal);
    // The deadline starts when the request is sent (after any wait for the endpoint's slot, in
    // schedule) and grows with the prompt (docs/models.md#slow-servers).
    const promptTokens = promptTokensOf(sent);
    const timeout = client.callTimeoutMs(promptTokens);
    const about: ScheduledCall = {
      providerModel: input.providerModel,
      promptTokens,
      waitedForLoading: false,
    };
    return client.schedule(
      () =>
        whileLoading(
          () => client.openai.chat.completions.create(sent, { signal: input.signal, timeout }),
          client.loadWaitMs,
          input.signal,
          () => (about.waitedForLoading = true),
        ),
      about,
    );
  };
  try {
    try {
      completion = await request();
    } catch (error) {
      // A server that refuses a feature it was thought to take (a probe's finding gone stale,
      // a gateway routing to another backend) is sent the call once more without it, and every
      // later call learns it too (docs/models.md).
      const weaker = weakerAfterRefusal(input, error);
      if (!weaker) throw error;
      input.capabilities = weaker;
      input.onCapabilitiesRefused?.(weaker);
      completion = await request();
    }
  } catch (error) {
    const failure = providerFailure(error, client.redact);
    client.onCall({
      model: input.providerModel,
      outcome:
        failure.code === 'MODEL_UNAVAILABLE'
          ? 'unavailable'
          : failure.code === 'TIMEOUT'
            ? 'timeout'
            : 'error',
      promptTokens: 0,
      completionTokens: 0,
    });
    throw failure;
  }
  spend.calls += 1;
  spend.tokens += completion.usage?.total_tokens ?? 0;
  addUsage(spend.usage, completion.usage);
  if (body && input.capabilities?.cutsLongPrompts)
    checkPromptKept(body, completion.usage?.prompt_tokens);
  return completion;
}

function weakerAfterRefusal(input: ModelCallInput, error: unknown): Capabilities | undefined {
  if (!input.capabilities || input.transport) return undefined;
  const refused = refusedCapability(error);
  if (!refused) return undefined;
  const weaker = downgrade(input.capabilities, refused);
  return weaker === input.capabilities ? undefined : weaker;
}
