import type OpenAI from 'openai';
import { LEAST_CAPABILITIES, type Capabilities } from './capabilities.ts';
import { createHttp } from './http.ts';
import { createChatCall, type ChatAnswer } from './probe-calls.ts';
import { readServerInfo } from './server-info.ts';

/*
 * What a model behind an endpoint can do, learned from the server (issue #36 item 2): first
 * what it tells at its own endpoints, then a few tiny chat calls judged by what the answers
 * contain, not by whether they were accepted: a schema accepted but not enforced is not
 * supported. Optional request fields ride on the same call; a 400 that names one drops it.
 */

export interface ProbeOptions {
  baseURL: string;
  apiKey: string;
  /** the model's name at the provider */
  providerModel: string;
  fetch?: typeof fetch;
  /** the service's client for this endpoint (Azure's deployments apply); else plain fetch */
  openai?: OpenAI;
  /** the longest wait for one answer */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ProbeResult {
  capabilities: Capabilities;
  /** the probe calls' tokens, never charged to anyone */
  tokensSpent: number;
  /** what was learned and how, for operators */
  notes: string[];
}

/** Calls at most: a refused field or mode costs one more. */
const MAX_CALLS = 6;
/** Answers of a few words: the probe's cost stays negligible. */
const PROBE_MAX_TOKENS = 48;

/** One required enum and one required patterned string; the prompt asks for values breaking both. */
const PROBE_SCHEMA = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['alpha', 'beta'] },
    code: { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' },
  },
  required: ['kind', 'code'],
  additionalProperties: false,
};
const CODE = /^[A-Z]{3}-\d{2}$/;

/** A 1×1 PNG: the smallest image part a server can refuse or take. */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

type Mode = 'strict' | 'loose' | 'json_object' | 'prompt';
/** Optional request fields, each dropped when a refusal names it. */
type Field = 'max_completion_tokens' | 'prompt_cache_key' | 'logprobs' | 'temperature';

export async function probeCapabilities(options: ProbeOptions): Promise<ProbeResult> {
  const http = createHttp(options);
  const info = await readServerInfo({ ...options, http });
  const chat = createChatCall({ ...options, http });
  const notes = [...info.notes];
  const caps: Capabilities = {
    ...LEAST_CAPABILITIES,
    schemaKeywords: { ...LEAST_CAPABILITIES.schemaKeywords },
    contextTokens: info.contextTokens,
    slots: info.slots,
    // a kind of server not known to refuse a long prompt is assumed to cut it silently
    cutsLongPrompts: info.cutsLongPrompts ?? true,
    maxTokensField: 'max_completion_tokens',
  };
  let tokensSpent = 0;
  let calls = 0;
  let reportsUsage = false;
  const send = async (body: Record<string, unknown>): Promise<ChatAnswer> => {
    calls += 1;
    const answer = await chat(body);
    const usage = get(answer.json, 'usage');
    const total = get(usage, 'total_tokens');
    if (answer.status === 200 && typeof total === 'number') tokensSpent += total;
    if (answer.status === 200) reportsUsage ||= num(get(usage, 'prompt_tokens')) > 0;
    return answer;
  };

  const fields = new Set<Field>([
    'max_completion_tokens',
    'prompt_cache_key',
    'logprobs',
    'temperature',
  ]);
  const modes: Mode[] = ['strict', 'loose', 'json_object', 'prompt'];
  let mode = 0;
  const reserve = info.images === false ? 0 : 1;
  let settled = false;
  while (!settled && calls < MAX_CALLS - reserve) {
    const current = modes[mode]!;
    const answer = await send(structuredBody(options.providerModel, current, fields, caps));
    if (answer.status !== 200) {
      const named = [...fields].filter((field) => answer.words.includes(field));
      if (named.length > 0) {
        for (const field of named) fields.delete(field);
        if (named.includes('max_completion_tokens')) caps.maxTokensField = 'max_tokens';
        notes.push(`refused ${named.join(', ')} (${answer.status})`);
        continue;
      }
      if (current === 'prompt') break;
      notes.push(`refused ${current} response_format (${answer.status})`);
      // only a refusal about strictness leaves json_schema worth trying without it
      mode = current === 'strict' && answer.words.includes('strict') ? 1 : Math.max(mode + 1, 2);
      continue;
    }
    const content = get(get(first(answer.json), 'message'), 'content');
    if (fields.has('logprobs'))
      caps.logprobs = Array.isArray(get(get(first(answer.json), 'logprobs'), 'content'));
    if (current === 'strict' || current === 'loose') {
      if (followsProbeSchema(content)) {
        Object.assign(caps, { structuredOutput: 'json_schema', strict: current === 'strict' });
        // the pattern and enum were just seen enforced; $ref and anyOf go with strict mode
        caps.schemaKeywords = { refs: caps.strict, pattern: true, enum: true, anyOf: caps.strict };
        settled = true;
      } else {
        notes.push(`${current} json_schema accepted but not enforced`);
        mode = 2;
      }
    } else {
      caps.structuredOutput =
        current === 'json_object' && isRecord(parse(content)) ? 'json_object' : 'prompt';
      settled = true;
    }
  }
  if (!settled) notes.push('structured output unsettled: the schema goes in the prompt');
  caps.promptCacheKey = fields.has('prompt_cache_key');
  caps.temperature = fields.has('temperature');
  if (!fields.has('logprobs')) caps.logprobs = false;

  if (info.images === false) notes.push('no vision, as the server says');
  else if (calls < MAX_CALLS) {
    const answer = await send(imageBody(options.providerModel, caps));
    caps.images = answer.status === 200;
    if (!caps.images) notes.push(`image part refused (${answer.status})`);
  }
  if (!reportsUsage) notes.push('answers carry no prompt-token count: a cut prompt cannot be seen');
  notes.push(`${calls} probe calls, ${tokensSpent} tokens`);
  return { capabilities: caps, tokensSpent, notes };
}

function structuredBody(model: string, mode: Mode, fields: Set<Field>, caps: Capabilities) {
  const ask = 'Set "kind" to "gamma" and "code" to "not a code".';
  const shown = `Reply with a JSON object following this JSON Schema:\n${JSON.stringify(PROBE_SCHEMA)}`;
  const body: Record<string, unknown> = {
    model,
    messages: [
      { role: 'system', content: mode === 'strict' || mode === 'loose' ? 'Reply in JSON.' : shown },
      { role: 'user', content: ask },
    ],
    [caps.maxTokensField]: PROBE_MAX_TOKENS,
  };
  if (mode === 'strict' || mode === 'loose')
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: 'probe', strict: mode === 'strict', schema: PROBE_SCHEMA },
    };
  if (mode === 'json_object') body.response_format = { type: 'json_object' };
  if (fields.has('logprobs')) body.logprobs = true;
  if (fields.has('prompt_cache_key')) body.prompt_cache_key = 'xt-probe';
  if (fields.has('temperature')) body.temperature = 0;
  return body;
}

function imageBody(model: string, caps: Capabilities) {
  return {
    model,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What colour is this pixel? One word.' },
          { type: 'image_url', image_url: { url: PIXEL } },
        ],
      },
    ],
    [caps.maxTokensField]: 8,
  };
}

/** Valid JSON that follows the probe schema: what an enforcing server must answer. */
function followsProbeSchema(content: unknown): boolean {
  const value = parse(content);
  if (!isRecord(value)) return false;
  const keys = Object.keys(value).sort();
  return (
    keys.join() === 'code,kind' &&
    (value.kind === 'alpha' || value.kind === 'beta') &&
    typeof value.code === 'string' &&
    CODE.test(value.code)
  );
}

function first(json: unknown): unknown {
  const choices = get(json, 'choices');
  return Array.isArray(choices) ? (choices as unknown[])[0] : undefined;
}

function parse(content: unknown): unknown {
  if (typeof content !== 'string') return undefined;
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return undefined;
  }
}

function get(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
