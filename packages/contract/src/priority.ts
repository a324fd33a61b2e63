import { z } from 'zod';

/**
 * How soon an extraction's model calls are wanted (docs/batch.md): `standard` at once,
 * `batch` within BATCH_WINDOW_HOURS through the provider's batch interface, at its price.
 */
export const EXTRACTION_PRIORITIES = ['standard', 'batch'] as const;
export type ExtractionPriority = (typeof EXTRACTION_PRIORITIES)[number];

export const DEFAULT_PRIORITY: ExtractionPriority = 'standard';

export const PrioritySchema = z.enum(EXTRACTION_PRIORITIES).meta({
  id: 'Priority',
  description:
    '`standard` (default): the model is called at once; `batch`: within BATCH_WINDOW_HOURS (default 24) through the provider’s batch interface, at its lower price (docs/batch.md)',
});
