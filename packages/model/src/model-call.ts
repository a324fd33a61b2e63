import { createHash } from 'node:crypto';
import type { FieldError, Structure } from '@xt/contract';
import { ExtractionFailure } from '@xt/contract';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ModelCallOutcome, ModelClient } from './client.ts';
import { toJsonSchema, unwrapOutput } from './json-schema.ts';
import { providerFailure } from './provider-errors.ts';
import { validateOutput } from './validate-output.ts';

/** Tokens and calls spent by one extraction, shared by all its calls (chunks and repairs). */
export interface Spend {
  tokens: number;
  calls: number;
}

export interface ModelCallInput {
  client: ModelClient;
  providerModel: string;
  /** what the answer is validated against */
  structure: Structure;
  messages: ChatCompletionMessageParam[];
  spend: Spend;
  signal?: AbortSignal | undefined;
}

const MAX_ERRORS_SHOWN = 30;

/**
 * One model call plus up to `maxRepairs` repair calls: an answer that is not JSON, was cut off,
 * or breaks the structure is sent back with what is wrong, and the model answers again.
 */
export async function callWithRepairs(input: ModelCallInput): Promise<unknown> {
  const { client, structure } = input;
  const { schema, wrapped } = toJsonSchema(structure);
  const cacheKey = `xt-${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32)}`;
  const messages = [...input.messages];
  let problems: string[] = [];

  for (let attempt = 0; attempt <= client.maxRepairs; attempt += 1) {
    const completion = await send(input, messages, schema, cacheKey);
    const choice = completion.choices[0];
    const message = choice?.message;
    const record = (outcome: ModelCallOutcome) =>
      client.onCall({
        model: input.providerModel,
        outcome,
        promptTokens: completion.usage?.prompt_tokens ?? 0,
        completionTokens: completion.usage?.completion_tokens ?? 0,
      });
    if (message?.refusal || choice?.finish_reason === 'content_filter') {
      record('refused');
      throw new ExtractionFailure(
        'MODEL_REFUSED',
        `The model refused to extract from this source${message?.refusal ? `: ${message.refusal.slice(0, 500)}` : '.'}`,
      );
    }
    const content = message?.content ?? '';
    if (choice?.finish_reason === 'length') {
      record('truncated');
      problems = ['the answer was cut off by the output limit before the JSON ended'];
      messages.push({
        role: 'user',
        content:
          'Your previous answer was cut off before the JSON ended. Answer again with complete JSON; keep text values short and do not repeat items.',
      });
      continue;
    }
    const parsed = parseJson(content);
    if (!parsed.ok) {
      problems = [`the answer is not valid JSON (${parsed.error})`];
    } else {
      const output = unwrapOutput(parsed.value, wrapped);
      const errors = validateOutput(structure, output);
      if (errors.length === 0) {
        record('ok');
        return output;
      }
      problems = errors.map(formatError);
    }
    record('invalid');
    messages.push({ role: 'assistant', content });
    messages.push({ role: 'user', content: repairRequest(problems) });
  }
  throw new ExtractionFailure(
    'OUTPUT_INVALID',
    `The model's answer still did not match the structure after ${client.maxRepairs} repairs: ${problems.slice(0, 5).join('; ')}`,
  );
}

async function send(
  input: ModelCallInput,
  messages: ChatCompletionMessageParam[],
  schema: Record<string, unknown>,
  cacheKey: string,
): Promise<ChatCompletion> {
  const { client, spend } = input;
  let completion: ChatCompletion;
  try {
    completion = await client.schedule(() =>
      client.openai.chat.completions.create(
        {
          model: input.providerModel,
          messages,
          ...(client.temperature === null ? {} : { temperature: client.temperature }),
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'extraction', strict: true, schema },
          },
          // routes requests with the same schema to the same prompt cache
          ...(client.promptCacheKey ? { prompt_cache_key: cacheKey } : {}),
          ...(client.maxOutputTokens ? { max_completion_tokens: client.maxOutputTokens } : {}),
        },
        { signal: input.signal },
      ),
    );
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
  return completion;
}

function repairRequest(problems: string[]): string {
  const shown = problems.slice(0, MAX_ERRORS_SHOWN).map((p) => `- ${p}`);
  if (problems.length > MAX_ERRORS_SHOWN)
    shown.push(`- and ${problems.length - MAX_ERRORS_SHOWN} more`);
  return `Your previous answer does not match the required structure:\n${shown.join('\n')}\nAnswer again with the complete corrected JSON. Remember: use null for optional values the source does not contain; never invent values.`;
}

function formatError(error: FieldError): string {
  return `${error.field} ${error.message}`;
}

/**
 * The inside of a Markdown fence around the whole answer: some OpenAI-compatible servers ignore
 * response_format and wrap the JSON in one. Cut by position rather than a pattern, whose
 * `\s*` runs around the lazy body backtrack super-linearly on a hostile answer.
 */
function fencedBody(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('```') || !trimmed.endsWith('```') || trimmed.length < 6) return;
  const firstLine = trimmed.indexOf('\n');
  const lastLine = trimmed.lastIndexOf('\n');
  if (firstLine === -1 || lastLine <= firstLine) return;
  const info = trimmed.slice(3, firstLine).trim().toLowerCase();
  if (info !== '' && info !== 'json') return;
  if (trimmed.slice(lastLine + 1).trim() !== '```') return;
  return trimmed.slice(firstLine + 1, lastLine);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const fenced = fencedBody(text);
    if (fenced !== undefined) return parseJson(fenced);
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
