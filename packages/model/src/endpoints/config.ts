import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { STRUCTURED_OUTPUT_MODES } from './capabilities.ts';

/*
 * MODEL_ENDPOINTS (docs/models.md): the model servers the service may call, in one place. One
 * entry per server (OpenAI, an Azure OpenAI resource, a local Ollama or vLLM, a gateway), each
 * serving public model names that `model` on create may name. Without it, OPENAI_BASE_URL,
 * OPENAI_API_KEY and MODEL_MAP describe one endpoint serving the default names, as before.
 */

export const ENDPOINT_KINDS = ['openai', 'azure', 'openai-compatible'] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

/** A public name: what clients send as `model` and see in `GET /v1/models`. */
const publicName = z
  .string()
  .regex(/^[\w.:/-]{1,100}$/u, 'must be 1-100 letters, digits, and . _ : / -');

const positiveInt = z.int().min(1);

/**
 * What the operator states of a model, overriding what a probe would learn: for a server that
 * tells nothing about itself, or one whose probe the operator wants to skip.
 */
const capabilityOverrides = z.strictObject({
  structuredOutput: z.enum(STRUCTURED_OUTPUT_MODES).optional(),
  images: z.boolean().optional(),
  logprobs: z.boolean().optional(),
  contextTokens: positiveInt.optional(),
  outputTokens: positiveInt.optional(),
});

const modelEntry = z.strictObject({
  /** the public name */
  id: publicName,
  /** the server's name for it (Azure: the deployment); default: `id` */
  providerModel: z.string().min(1).optional(),
  /** served when a create names no model; at most one model over all endpoints */
  default: z.boolean().optional(),
  capabilities: capabilityOverrides.optional(),
});

const endpointEntry = z
  .strictObject({
    name: z.string().regex(/^[\w-]{1,64}$/u, 'must be 1-64 letters, digits, _ and -'),
    kind: z.enum(ENDPOINT_KINDS),
    /** OpenAI: default https://api.openai.com/v1; Azure: the resource's endpoint */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** the key itself, or (better, so it stays out of files) `apiKeyEnv` */
    apiKey: z.string().min(1).optional(),
    /** the variable holding the key */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_]\w*$/u, 'must be a variable name')
      .optional(),
    /** Azure OpenAI's api-version */
    apiVersion: z.string().min(1).optional(),
    models: z.array(modelEntry).min(1, 'must list at least one model'),
    /** calls in flight at this server, counted across every worker process */
    maxInFlight: positiveInt.optional(),
    /** the context window, when the server does not tell it (or tells it wrong) */
    contextTokens: positiveInt.optional(),
    /** a call's deadline floor in ms; it grows with the prompt (MODEL_TIMEOUT_PER_1K_TOKENS_MS) */
    timeoutMs: positiveInt.optional(),
  })
  .superRefine((entry, ctx) => {
    if (entry.kind !== 'openai' && !entry.baseUrl)
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message: `is required for kind ${entry.kind}`,
      });
    if (entry.kind === 'azure' && !entry.apiVersion)
      ctx.addIssue({ code: 'custom', path: ['apiVersion'], message: 'is required for kind azure' });
    if (entry.apiKey && entry.apiKeyEnv)
      ctx.addIssue({
        code: 'custom',
        path: ['apiKeyEnv'],
        message: 'give apiKey or apiKeyEnv, not both',
      });
  });

export type EndpointEntry = z.output<typeof endpointEntry>;
export type ModelEntry = z.output<typeof modelEntry>;
export type CapabilityOverrides = z.output<typeof capabilityOverrides>;

/**
 * MODEL_ENDPOINTS as the environment gives it: JSON (an array of endpoints, or `{ "endpoints":
 * [...] }`), or the path of a file holding that JSON (a mounted secret or config map). Each
 * problem is reported with the endpoint's name, so a bad entry among several is found at once.
 */
export const modelEndpointsSetting = z
  .string()
  .optional()
  .transform((text, ctx): EndpointEntry[] | undefined => {
    if (text === undefined || text.trim() === '') return undefined;
    const json = readJson(text.trim());
    if (!json.ok) {
      ctx.addIssue({ code: 'custom', message: json.error });
      return z.NEVER;
    }
    const list = Array.isArray(json.value)
      ? json.value
      : (json.value as { endpoints?: unknown } | null)?.endpoints;
    if (!Array.isArray(list) || list.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a non-empty array of endpoints (or { "endpoints": [...] })',
      });
      return z.NEVER;
    }
    const entries: EndpointEntry[] = [];
    list.forEach((raw, i) => {
      const parsed = endpointEntry.safeParse(raw);
      const label = entryLabel(raw, i);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({
            code: 'custom',
            message: `${label}: ${issue.path.join('.') || '(entry)'} ${issue.message}`,
          });
        return;
      }
      entries.push(parsed.data);
    });
    for (const problem of crossEntryProblems(entries))
      ctx.addIssue({ code: 'custom', message: problem });
    return ctx.issues?.length ? z.NEVER : entries;
  });

function entryLabel(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? `endpoint "${name}"` : `endpoint ${index + 1}`;
}

/** Names must be unique across entries: a public name maps to exactly one endpoint. */
function crossEntryProblems(entries: EndpointEntry[]): string[] {
  const problems: string[] = [];
  const endpoints = new Set<string>();
  const models = new Map<string, string>();
  let defaults = 0;
  for (const entry of entries) {
    if (endpoints.has(entry.name))
      problems.push(`endpoint "${entry.name}": the name is used twice`);
    endpoints.add(entry.name);
    for (const model of entry.models) {
      const other = models.get(model.id);
      if (other !== undefined)
        problems.push(
          `endpoint "${entry.name}": model "${model.id}" is already served by endpoint "${other}"`,
        );
      models.set(model.id, entry.name);
      if (model.default) defaults += 1;
    }
  }
  if (defaults > 1) problems.push(`${defaults} models are marked default; mark at most one`);
  return problems;
}

function readJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  let source = text;
  if (!text.startsWith('[') && !text.startsWith('{')) {
    try {
      source = readFileSync(text, 'utf8');
    } catch (error) {
      return {
        ok: false,
        error: `is neither JSON nor a readable file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
      };
    }
  }
  try {
    return { ok: true, value: JSON.parse(source) as unknown };
  } catch (error) {
    return { ok: false, error: `is not valid JSON: ${(error as Error).message}` };
  }
}
