import type { Dialect } from './types.ts';

/*
 * What each server tells about itself at its own endpoints (issue #36), in the shapes their
 * docs show, with the values the dialect works with: a probe reading them learns the window
 * and slots the stand-in really enforces. Ollama and LM Studio answer their native APIs at the
 * server's root, beside the OpenAI-compatible /v1.
 */

export interface InfoContext {
  dialect: Dialect;
  models: string[];
  /** models a chat request has used: Ollama's /api/ps lists only models it has loaded */
  loaded: ReadonlySet<string>;
}

export interface InfoAnswer {
  status: number;
  body: unknown;
}

/** A model's own trained window, reported where servers report it beside the running one. */
const TRAINED_CONTEXT = 131_072;

export function serverInfo(
  method: string,
  path: string,
  body: unknown,
  ctx: InfoContext,
): InfoAnswer | undefined {
  const { dialect } = ctx;
  const server = dialect.server ?? 'openai';
  const window = dialect.contextTokens ?? TRAINED_CONTEXT;
  const vision = dialect.images !== false;
  if (method === 'GET' && path === '/v1/models') return modelList(ctx, window);
  if (server === 'llamacpp') {
    // llama.cpp's /props: n_ctx the server runs with, total_slots its -np (4 when "auto")
    const slots = dialect.slots ?? 4;
    if (method === 'GET' && path === '/props')
      return ok({
        default_generation_settings: { n_ctx: window, params: { n_predict: -1 } },
        total_slots: slots,
        model_path: `/models/${ctx.models[0] ?? 'model'}.gguf`,
        modalities: { vision, audio: false },
        build_info: 'b6000-stand-in',
      });
    if (method === 'GET' && path === '/slots')
      return ok(
        Array.from({ length: slots }, (_, id) => ({
          id,
          id_task: -1,
          n_ctx: window,
          is_processing: false,
        })),
      );
    if (method === 'GET' && path === '/health') return ok({ status: 'ok' });
  }
  if (server === 'ollama') {
    const model = (body as { model?: unknown; name?: unknown } | undefined)?.model;
    if (method === 'POST' && path === '/api/show') {
      if (typeof model !== 'string' || !known(ctx.models, model))
        return { status: 404, body: { error: `model '${String(model)}' not found` } };
      // `parameters` is the Modelfile's text: num_ctx appears only when it was set
      const parameters = [
        ...(dialect.contextTokens !== undefined ? [`num_ctx ${dialect.contextTokens}`] : []),
        'stop "<|eot_id|>"',
      ].join('\n');
      return ok({
        modelfile: `FROM ${model}`,
        parameters,
        template: '{{ .Prompt }}',
        details: { format: 'gguf', family: 'llama', parameter_size: '8.0B' },
        model_info: { 'general.architecture': 'llama', 'llama.context_length': TRAINED_CONTEXT },
        capabilities: vision ? ['completion', 'vision'] : ['completion'],
      });
    }
    if (method === 'GET' && path === '/api/ps')
      // loaded models only, each with the context it was loaded with (`ollama ps` CONTEXT)
      return ok({
        models: [...ctx.loaded].map((name) => ({
          name,
          model: name,
          size: 5_000_000_000,
          details: { format: 'gguf', family: 'llama' },
          expires_at: '2099-01-01T00:00:00Z',
          size_vram: 5_000_000_000,
          context_length: window,
        })),
      });
  }
  if (server === 'lmstudio' && method === 'GET' && path === '/api/v0/models')
    return ok({
      object: 'list',
      data: ctx.models.map((id) => ({
        id,
        object: 'model',
        type: vision ? 'vlm' : 'llm',
        publisher: 'lmstudio-community',
        arch: 'llama',
        compatibility_type: 'gguf',
        quantization: 'Q4_K_M',
        state: 'loaded',
        max_context_length: TRAINED_CONTEXT,
        loaded_context_length: window,
      })),
    });
  return undefined;
}

/**
 * `GET /v1/models` as each server lists it: vLLM adds `max_model_len` (the window it runs
 * with); llama.cpp adds `meta.n_ctx_train`, the model's trained window, not the one it runs.
 */
function modelList(ctx: InfoContext, window: number): InfoAnswer {
  const server = ctx.dialect.server ?? 'openai';
  const owner = { openai: 'stand-in', vllm: 'vllm', llamacpp: 'llamacpp', ollama: 'library' };
  const data = ctx.models.map((id) => {
    const entry = {
      id,
      object: 'model',
      created: 0,
      owned_by: server === 'lmstudio' ? 'organization_owner' : owner[server],
    };
    if (server === 'vllm') return { ...entry, root: id, parent: null, max_model_len: window };
    if (server === 'llamacpp') return { ...entry, meta: { n_ctx_train: TRAINED_CONTEXT } };
    return entry;
  });
  return ok({ object: 'list', data });
}

/** Ollama takes a name without its tag as the `:latest` one. */
function known(models: string[], name: string): boolean {
  return models.some((m) => m === name || m === `${name}:latest` || `${m}:latest` === name);
}

function ok(body: unknown): InfoAnswer {
  return { status: 200, body };
}
