export { toJsonSchema, unwrapOutput, WRAP_KEY, type JsonSchema } from './json-schema.ts';
export { validateOutput, ROOT_PATH } from './validate-output.ts';
export {
  buildMessages,
  SYSTEM_PROMPT,
  type BuildMessagesInput,
  type ChunkPosition,
} from './prompt.ts';
export { describeStructure } from './describe-structure.ts';
export {
  createModelClient,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_INPUT_TOKENS,
  DEFAULT_MAX_CONTINUATIONS,
  DEFAULT_MAX_REPAIRS,
  type ModelCallOutcome,
  type ModelCallRecord,
  type ModelClient,
  type ModelClientOptions,
  type Schedule,
  type ScheduledCall,
} from './client.ts';
export { extract, SourceDoesNotFit, type ExtractInput, type ExtractResult } from './extract.ts';
export { markReplayed, type CallResult, type ChatTransport } from './model-call.ts';
export { mergeAnswers } from './merge-answers.ts';
export { estimateTextTokens, estimateImageTokens, estimatePartTokens } from './tokens.ts';
export { chunkParts, type PartEstimator } from './chunking.ts';
export { mergeOutputs } from './merge.ts';
export { addUsage } from './usage.ts';
export { countPages, type PageProgress } from './page-progress.ts';
export { fillAbsentFields } from './normalize.ts';
export { relaxStructure } from './relax.ts';
export { providerFailure } from './provider-errors.ts';
export type { Annotations } from './annotations.ts';
export {
  costUsd,
  DEFAULT_PRICES,
  priceTable,
  unknownPricedModels,
  PriceOverridesSchema,
  type ModelPrices,
  type PriceOverrides,
  type PriceTable,
  type Priority,
  type TokenPrices,
} from './prices.ts';
export {
  STRUCTURED_OUTPUT_MODES,
  OPENAI_CAPABILITIES,
  LEAST_CAPABILITIES,
  type Capabilities,
  type StructuredOutputMode,
  type MaxTokensField,
} from './endpoints/capabilities.ts';
export {
  ENDPOINT_KINDS,
  modelEndpointsSetting,
  type EndpointEntry,
  type EndpointKind,
  type CapabilityOverrides,
} from './endpoints/config.ts';
export {
  modelRegistry,
  SINGLE_ENDPOINT_NAME,
  type Endpoint,
  type ModelRegistry,
  type ModelRoute,
} from './endpoints/registry.ts';
export {
  modelEndpointsConfig,
  modelMapSetting,
  registryFromSettings,
  singleEndpointConfig,
} from './endpoints/settings.ts';
export {
  redisCapabilityStore,
  memoryCapabilityStore,
  type CapabilityRedis,
  type CapabilityStore,
  type ProbedCapabilities,
} from './endpoints/capability-store.ts';
export {
  capabilityResolver,
  effectiveCapabilities,
  needsProbe,
  isProbed,
  type CapabilityResolver,
  type ProbeModel,
  type ResolverOptions,
} from './endpoints/resolve.ts';
export { modelClients, type ModelClients, type SharedClientOptions } from './endpoints/clients.ts';
export { adaptSchema } from './endpoints/schema-dialect.ts';
export { readJsonAnswer, type JsonAnswer } from './endpoints/read-answer.ts';
export {
  responseFormat,
  schemaInstruction,
  withSchemaInstruction,
  SCHEMA_INSTRUCTION,
} from './endpoints/dialect.ts';
export { downgrade, refusedCapability, type RefusedField } from './endpoints/refusals.ts';
export {
  redisEndpointSlots,
  type EndpointSlots,
  type Slot,
  type SlotOptions,
} from './endpoints/slots.ts';
export {
  allowed,
  initialLimit,
  nextLimit,
  type LatencySample,
  type LearnedLimit,
  type LimitBounds,
} from './endpoints/learned-limit.ts';
export {
  memoryLearnedLimits,
  redisLearnedLimits,
  type LearnedLimitRedis,
  type LearnedLimits,
} from './endpoints/learned-limit-store.ts';
export { pacedSchedule, type PacingOptions } from './endpoints/paced.ts';
export { whileLoading, isLoading } from './endpoints/loading.ts';
export { checkPromptKept, PromptCut, KEPT_RATIO } from './endpoints/prompt-kept.ts';
export { contextBudget, CONTEXT_MARGIN, type ContextBudget } from './endpoints/context-budget.ts';
export { probeCapabilities, type ProbeOptions, type ProbeResult } from './endpoints/probe.ts';
export { ProbeError, type ProbeFailure } from './endpoints/probe-error.ts';
export {
  OLLAMA_DEFAULT_CONTEXT,
  readServerInfo,
  type ServerInfo,
  type ServerKind,
} from './endpoints/server-info.ts';
export { createHttp, type Http, type HttpResult } from './endpoints/http.ts';
export { probeRoute } from './endpoints/probe-route.ts';
