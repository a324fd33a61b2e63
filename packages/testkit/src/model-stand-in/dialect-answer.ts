import { CHARS_PER_TOKEN } from './completion.ts';
import { recordRequest } from './record.ts';
import { sampleValue } from './sample-value.ts';
import type { Dialect, RecordedRequest, Usage } from './types.ts';

/*
 * What a server that speaks less than OpenAI's dialect does to a request it takes (issue #36):
 * it cuts a prompt longer than its window, and a model that is not held to the schema writes
 * the JSON it thinks of, or wraps it in prose.
 */

type Json = Record<string, unknown>;

/**
 * The request as the model sees it when the prompt is longer than the window: the text of the
 * messages cut from the start, so the end is kept. This is Ollama's way (its runner keeps only
 * the last tokens and its "truncating input prompt" warning goes to the server log alone,
 * ollama#8531, ollama#10368); llama.cpp's context shift keeps the first n_keep tokens instead.
 * Images are kept: the cut is measured in the text's characters of request body.
 */
export function truncated(
  body: unknown,
  bodyChars: number,
  contextTokens: number,
): { body: unknown; removedChars: number } | undefined {
  const excess = bodyChars - contextTokens * CHARS_PER_TOKEN;
  if (excess <= 0 || !isRecord(body) || !Array.isArray(body.messages)) return undefined;
  let left = excess;
  /** The text without its start, cut by as many characters of body as are still over. */
  const cutText = (text: string): string => {
    let at = 0;
    while (at < text.length && left > 0) {
      // a character's size in the JSON body: escapes (\n, \") are two or more
      left -= JSON.stringify(text[at]).length - 2;
      at += 1;
    }
    return text.slice(at);
  };
  const messages = (body.messages as unknown[]).map((message) => {
    if (left <= 0 || !isRecord(message)) return message;
    if (typeof message.content === 'string')
      return { ...message, content: cutText(message.content) };
    if (!Array.isArray(message.content)) return message;
    const content = (message.content as unknown[]).map((part) => {
      if (left <= 0 || !isRecord(part) || typeof part.text !== 'string') return part;
      return { ...part, text: cutText(part.text) };
    });
    return { ...message, content };
  });
  const kept = { ...body, messages };
  // escapes make a cut character one or more characters of body: measure what really went
  const removedChars = JSON.stringify(body).length - JSON.stringify(kept).length;
  return { body: kept, removedChars };
}

/**
 * The JSON Schema the prompt carries, when it does: a fenced or bare JSON object with
 * `properties`, in any message. A model not held to the schema follows the one it is shown.
 */
export function schemaFromPrompt(request: RecordedRequest): Json | undefined {
  for (const message of request.messages) {
    for (const candidate of jsonCandidates(message.text)) {
      const parsed = parse(candidate);
      if (isRecord(parsed) && isRecord(parsed.properties)) return parsed;
      if (isRecord(parsed) && isRecord(parsed.schema) && isRecord(parsed.schema.properties))
        return parsed.schema;
    }
  }
  return undefined;
}

/** Fenced blocks first, then the text from the first `{` to the last `}`. */
function jsonCandidates(text: string): string[] {
  const out: string[] = [];
  let at = text.indexOf('```');
  while (at >= 0) {
    const bodyStart = text.indexOf('\n', at);
    const end = bodyStart < 0 ? -1 : text.indexOf('```', bodyStart);
    if (end < 0) break;
    out.push(text.slice(bodyStart + 1, end));
    at = text.indexOf('```', end + 3);
  }
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) out.push(text.slice(first, last + 1));
  return out;
}

/** Whether the answer is held to a schema, and which one the model follows. */
export function followedSchema(
  dialect: Dialect,
  request: RecordedRequest,
): { schema: unknown; drifts: boolean; prose: boolean; enforced: boolean } {
  const mode = dialect.structuredOutput ?? 'json_schema';
  const format = (request.body as { response_format?: { type?: unknown } } | undefined)
    ?.response_format?.type;
  // Sent no schema to enforce, a model that would have been held to one follows the prompt's.
  if (mode === 'json_schema' && request.schema === undefined) {
    const shown = schemaFromPrompt(request);
    return { schema: shown, drifts: false, prose: false, enforced: false };
  }
  if (mode === 'json_schema' || (mode === 'json_object_only' && format === 'json_schema'))
    return { schema: request.schema, drifts: false, prose: false, enforced: true };
  // json_object (any mode), ignored and unenforced: only what the prompt shows binds it
  const shown = schemaFromPrompt(request);
  return {
    schema: shown ?? request.schema,
    drifts: shown === undefined,
    prose: mode === 'ignored',
    enforced: false,
  };
}

/**
 * A value as a server enforcing its schema lets the model write it (OpenAI's strict mode,
 * vLLM's and llama.cpp's grammars): a string outside its enum or pattern, which the oracle may
 * have read from the prompt, cannot be generated and comes out as a valid one instead.
 */
export function heldToSchema(schema: unknown, value: unknown): unknown {
  if (!isRecord(schema)) return value;
  const branches = schema.anyOf;
  if (Array.isArray(branches)) {
    if (value === null && branches.some((b) => isRecord(b) && b.type === 'null')) return null;
    const real = branches.find((b) => !(isRecord(b) && b.type === 'null'));
    return heldToSchema(real, value);
  }
  if (isRecord(value) && isRecord(schema.properties)) {
    const out: Json = { ...value };
    for (const [key, child] of Object.entries(schema.properties))
      if (key in out) out[key] = heldToSchema(child, out[key]);
    return out;
  }
  if (Array.isArray(value) && isRecord(schema.items))
    return value.map((item) => heldToSchema(schema.items, item));
  if (typeof value !== 'string') return value;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return sampleValue(schema);
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    return sampleValue(schema);
  return value;
}

/**
 * JSON as a model writes it without the schema: the first field renamed (snake_case to
 * camelCase, else with "Value" added), the last of three or more dropped, numbers as strings.
 */
export function drift(value: unknown): unknown {
  if (!isRecord(value)) return { result: value };
  const entries = Object.entries(value);
  const out: Json = {};
  entries.forEach(([key, child], index) => {
    if (index === entries.length - 1 && entries.length > 2) return;
    const name = index === 0 ? renamed(key) : key;
    out[name] = typeof child === 'number' ? String(child) : child;
  });
  return out;
}

function renamed(key: string): string {
  const camel = key.replace(/_([a-z\d])/g, (_, c: string) => c.toUpperCase());
  return camel === key ? `${key}Value` : camel;
}

/** The answer of a model without guided decoding: a sentence, then the JSON in a fence. */
export function inProse(json: string): string {
  return `Here is the extracted data in JSON format:\n\n\`\`\`json\n${json}\n\`\`\`\n`;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The request as the model sees it under the dialect's window, and its size in characters of
 * request text (images' base64 left out, as usage counts them apart).
 */
export function keptRequest(
  dialect: Dialect,
  request: RecordedRequest,
  textChars: number,
): { request: RecordedRequest; textChars: number } {
  const limit = dialect.contextTokens;
  if (limit === undefined || dialect.overflow === 'error') return { request, textChars };
  const cut = truncated(request.body, textChars, limit);
  if (!cut) return { request, textChars };
  const kept = recordRequest(
    request.method,
    request.path,
    request.headers,
    JSON.stringify(cut.body),
  );
  return { request: kept, textChars: textChars - cut.removedChars };
}

/** The completion's content rewritten as a model not held to the schema writes it. */
export function restyle(
  completion: { choices: { message: { content: string | null } }[]; usage: Usage },
  view: { drifts: boolean; prose: boolean },
): void {
  const message = completion.choices[0]?.message;
  if (!message || message.content === null || (!view.drifts && !view.prose)) return;
  let content = message.content;
  if (view.drifts) {
    const parsed = parse(content);
    if (parsed !== undefined) content = JSON.stringify(drift(parsed));
  }
  if (view.prose) content = inProse(content);
  message.content = content;
  const usage = completion.usage;
  usage.completion_tokens = Math.max(1, Math.ceil(content.length / CHARS_PER_TOKEN));
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
}
