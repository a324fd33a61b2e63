import { withoutTrailingSlash, type Http, type HttpResult } from './http.ts';
import { ProbeError, safeEndpoint } from './probe-error.ts';

/*
 * What a server tells about itself before any chat call (issue #36 item 2): its context
 * window, its parallel slots and whether the model sees images. Each kind of server says it at
 * its own endpoint; each is asked once, with a short timeout, and a 404 or a refused connection
 * only means "not this kind".
 */

export type ServerKind = 'vllm' | 'llamacpp' | 'ollama' | 'lmstudio';

export interface ServerInfo {
  /** the kind of server that answered its own endpoint; null: none did (OpenAI, a gateway) */
  kind: ServerKind | null;
  /** the window the server runs the model with, in tokens; null: not told */
  contextTokens: number | null;
  /** requests it works at once (llama.cpp's total_slots); null: not told */
  slots: number | null;
  /** whether the model takes images, as the server says; null: not told */
  images: boolean | null;
  /**
   * Whether the kind of server keeps part of a prompt longer than its window without an error
   * (Ollama truncates, llama.cpp shifts its context, LM Studio's overflow policy truncates by
   * default) or refuses it (vLLM's 400, vllm#20409; OpenAI and Azure); null: unknown kind.
   */
  cutsLongPrompts: boolean | null;
  notes: string[];
}

/**
 * Ollama runs a model with 4096 tokens of context unless num_ctx or OLLAMA_CONTEXT_LENGTH says
 * otherwise: its docs (docs/context-length.mdx) now default by VRAM, 4k under 24 GiB, 32k up
 * to 48 GiB, 256k above, and the client cannot see the VRAM, so the smallest is assumed.
 */
export const OLLAMA_DEFAULT_CONTEXT = 4096;

/** Servers known to speak OpenAI's dialect and nothing else: no native endpoints to ask. */
const OPENAI_HOSTS = /(^|\.)(openai\.com|openai\.azure\.com)$/;

export async function readServerInfo(options: {
  baseURL: string;
  providerModel: string;
  http: Http;
  timeoutMs: number;
}): Promise<ServerInfo> {
  const { baseURL, providerModel: model, http } = options;
  const base = withoutTrailingSlash(baseURL);
  // Ollama's, llama.cpp's and LM Studio's own APIs live at the root, beside /v1
  const root = base.replace(/\/v1$/, '');
  const timeoutMs = Math.min(options.timeoutMs, 5_000);
  const info: ServerInfo = {
    kind: null,
    contextTokens: null,
    slots: null,
    images: null,
    cutsLongPrompts: null,
    notes: [],
  };

  const models = await http('GET', `${base}/models`, { timeoutMs });
  if ('failure' in models) {
    if (models.failure === 'aborted') throw models.cause;
    if (models.failure === 'refused')
      throw new ProbeError('unreachable', `${safeEndpoint(baseURL)} did not answer.`, {
        cause: models.cause,
      });
  } else if (models.status === 401 || models.status === 403) {
    throw new ProbeError('unauthorized', `${safeEndpoint(baseURL)} refused the API key.`);
  }
  if (OPENAI_HOSTS.test(new URL(base).hostname)) return { ...info, cutsLongPrompts: false };

  const [props, show, ps, lmstudio] = await Promise.all([
    http('GET', `${root}/props`, { timeoutMs }),
    http('POST', `${root}/api/show`, { timeoutMs, body: { model } }),
    http('GET', `${root}/api/ps`, { timeoutMs }),
    http('GET', `${root}/api/v0/models`, { timeoutMs }),
  ]);
  for (const read of [
    () => fromLlamaCpp(props),
    () => fromVllm(models, model),
    () => fromLmStudio(lmstudio, model),
    () => fromOllama(show, ps, model),
  ]) {
    const found = read();
    if (found) return { ...info, ...found };
  }
  info.notes.push('the server told nothing of its window, slots or vision');
  return info;
}

/** llama.cpp's GET /props: `default_generation_settings.n_ctx`, `total_slots`, `modalities`. */
function fromLlamaCpp(props: HttpResult): ServerInfo | undefined {
  const body = ok(props);
  const nCtx = num(get(body, 'default_generation_settings', 'n_ctx'));
  if (nCtx === null) return undefined;
  const slots = num(get(body, 'total_slots'));
  const vision = get(body, 'modalities', 'vision');
  return {
    kind: 'llamacpp',
    contextTokens: nCtx,
    slots,
    images: typeof vision === 'boolean' ? vision : null,
    cutsLongPrompts: true,
    notes: [`llama.cpp (GET /props): n_ctx ${nCtx}, ${slots ?? '?'} slots`],
  };
}

/** vLLM's GET /v1/models lists `max_model_len`, the window it was started with. */
function fromVllm(models: HttpResult, model: string): ServerInfo | undefined {
  const entry = listed(ok(models), model);
  const window = num(get(entry, 'max_model_len'));
  if (window === null) return undefined;
  return {
    kind: 'vllm',
    contextTokens: window,
    slots: null,
    images: null,
    cutsLongPrompts: false,
    notes: [`vLLM (GET /models): max_model_len ${window}`],
  };
}

/**
 * LM Studio's GET /api/v0/models: `loaded_context_length` is what a loaded model runs with,
 * `max_context_length` what it could; `type` is 'vlm' for a model that sees images.
 */
function fromLmStudio(list: HttpResult, model: string): ServerInfo | undefined {
  const entry = listed(ok(list), model);
  const window = num(get(entry, 'loaded_context_length')) ?? num(get(entry, 'max_context_length'));
  if (window === null) return undefined;
  const type = get(entry, 'type');
  return {
    kind: 'lmstudio',
    contextTokens: window,
    slots: null,
    images: type === 'vlm' ? true : type === 'llm' ? false : null,
    cutsLongPrompts: true,
    notes: [`LM Studio (GET /api/v0/models): context ${window}, type ${String(type)}`],
  };
}

/**
 * Ollama: a running model's `context_length` in GET /api/ps is what it really runs with; else
 * `num_ctx` in /api/show's parameters, which it will be loaded with; else the default. The
 * model's own `<arch>.context_length` only caps it, as Ollama caps num_ctx to what the model
 * was trained for.
 */
function fromOllama(show: HttpResult, ps: HttpResult, model: string): ServerInfo | undefined {
  const body = ok(show);
  const modelInfo = get(body, 'model_info');
  if (!isRecord(modelInfo)) return undefined;
  const arch = modelInfo['general.architecture'];
  const trained = num(modelInfo[`${String(arch)}.context_length`]);
  const parameters = get(body, 'parameters');
  const numCtx =
    typeof parameters === 'string' ? num(Number(/^num_ctx\s+(\d+)/m.exec(parameters)?.[1])) : null;
  const running = get(ok(ps), 'models');
  const loaded = Array.isArray(running)
    ? (running as unknown[]).find(
        (m) => sameModel(get(m, 'name'), model) || sameModel(get(m, 'model'), model),
      )
    : undefined;
  const inUse = num(get(loaded, 'context_length'));
  const chosen = inUse ?? numCtx ?? OLLAMA_DEFAULT_CONTEXT;
  const window = trained === null ? chosen : Math.min(chosen, trained);
  const capabilities = get(body, 'capabilities');
  const source = inUse !== null ? '/api/ps' : numCtx !== null ? 'num_ctx' : 'the default';
  return {
    kind: 'ollama',
    contextTokens: window,
    slots: null,
    images: Array.isArray(capabilities) ? capabilities.includes('vision') : null,
    cutsLongPrompts: true,
    notes: [`Ollama (POST /api/show, GET /api/ps): context ${window} from ${source}`],
  };
}

function sameModel(name: unknown, model: string): boolean {
  if (typeof name !== 'string') return false;
  return name === model || name === `${model}:latest` || `${name}:latest` === model;
}

function listed(body: unknown, model: string): unknown {
  const data = get(body, 'data');
  return Array.isArray(data) ? (data as unknown[]).find((m) => get(m, 'id') === model) : undefined;
}

function ok(result: HttpResult): unknown {
  return 'status' in result && result.status === 200 ? result.json : undefined;
}

function get(value: unknown, ...keys: string[]): unknown {
  let node = value;
  for (const key of keys) node = isRecord(node) ? node[key] : undefined;
  return node;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
