import { modelEndpointsSetting, type EndpointEntry } from './config.ts';
import { modelRegistry, type ModelRegistry } from './registry.ts';

/** The variable both apps read to know the models served (docs/models.md). */
export const modelEndpointsConfig = { MODEL_ENDPOINTS: modelEndpointsSetting };

export interface ModelSettings {
  MODEL_ENDPOINTS?: EndpointEntry[] | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  MODEL_MAP?: Record<string, string> | undefined;
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
