/** Extraction states (docs/api.md#states): pending → processing → completed | failed. */
export const EXTRACTION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];
export const FINAL_STATUSES: ReadonlySet<ExtractionStatus> = new Set(['completed', 'failed']);

/**
 * The public model names served when the operator configures no endpoints (MODEL_ENDPOINTS):
 * OPENAI_BASE_URL's one endpoint serves these, `MODEL_MAP` maps them to provider names.
 */
export const PUBLIC_MODELS = ['gpt-4.1', 'gpt-4.1-mini'] as const;
/** A public model name: one of PUBLIC_MODELS, or any name MODEL_ENDPOINTS configures. */
export type PublicModel = string;
export const DEFAULT_MODEL: PublicModel = 'gpt-4.1';
