/** Extraction states (docs/api.md#states): pending → processing → completed | failed. */
export const EXTRACTION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];
export const FINAL_STATUSES: ReadonlySet<ExtractionStatus> = new Set(['completed', 'failed']);

/** Public model names a client may ask for; `MODEL_MAP` maps them to provider names. */
export const PUBLIC_MODELS = ['gpt-4.1', 'gpt-4.1-mini'] as const;
export type PublicModel = (typeof PUBLIC_MODELS)[number];
export const DEFAULT_MODEL: PublicModel = 'gpt-4.1';
