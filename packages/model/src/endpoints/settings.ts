import { z } from 'zod';
import { modelEndpointsSetting, type EndpointEntry } from './config.ts';
import { modelRegistry, type ModelRegistry } from './registry.ts';

/** The variable both apps read to know the models served (docs/models.md). */
export const modelEndpointsConfig = { MODEL_ENDPOINTS: modelEndpointsSetting };

/** `{"gpt-4.1":"gpt-4.1-2025-04-14"}` or `gpt-4.1=my-deployment,gpt-4.1-mini=small` */
export const modelMapSetting = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const trimmed = text.trim();
    if (trimmed === '') return {};
    if (trimmed.startsWith('{')) {
      try {
        const parsed = z.record(z.string(), z.string()).parse(JSON.parse(trimmed));
        return parsed;
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a JSON object of strings or name=target pairs',
        });
        return z.NEVER;
      }
    }
    const map: Record<string, string> = {};
    for (const pair of trimmed.split(',')) {
      const [from, to] = pair.split('=').map((s) => s.trim());
      if (!from || !to) {
        ctx.addIssue({ code: 'custom', message: `bad pair "${pair}": expected name=target` });
        return z.NEVER;
      }
      map[from] = to;
    }
    return map;
  });

/** The one endpoint described without MODEL_ENDPOINTS: the worker's, and `npm run models`. */
export const singleEndpointConfig = {
  OPENAI_API_KEY: z.string().default(''),
  OPENAI_BASE_URL: z.url().optional(),
  MODEL_MAP: modelMapSetting,
  // `auto`: OpenAI at api.openai.com, probed anywhere else; `openai`: a server that speaks
  // OpenAI's whole dialect (a proxy in front of it), taken at its word (docs/models.md).
  MODEL_ENDPOINT_KIND: z.enum(['auto', 'openai', 'openai-compatible']).default('auto'),
};

export interface ModelSettings {
  MODEL_ENDPOINTS?: EndpointEntry[] | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  MODEL_MAP?: Record<string, string> | undefined;
  MODEL_ENDPOINT_KIND?: 'auto' | 'openai' | 'openai-compatible' | undefined;
}

/**
 * The registry a process serves, or the start-up error that names what is wrong, in the form
 * parseEnv gives for a bad variable. The API passes `needKeys: false`: it lists and checks
 * names, and never calls a model, so a key it was not given is none of its business.
 */
export function registryFromSettings(
  settings: ModelSettings,
  env: Readonly<Record<string, string | undefined>>,
  needKeys: boolean,
): ModelRegistry {
  const { registry, problems } = modelRegistry(
    settings.MODEL_ENDPOINTS,
    {
      apiKey: settings.OPENAI_API_KEY ?? '',
      baseURL: settings.OPENAI_BASE_URL,
      modelMap: settings.MODEL_MAP ?? {},
      kind: settings.MODEL_ENDPOINT_KIND,
    },
    env,
    { needKeys },
  );
  if (problems.length > 0)
    throw new Error(
      `Invalid configuration:\n${problems.map((p) => `  MODEL_ENDPOINTS: ${p}`).join('\n')}`,
    );
  return registry;
}
