/**
 * What `POST /extractions` answers with, as zod schemas (the records of the other routes are in
 * @xt/contract, shared with the worker's webhook events). The route is typed from these and the
 * OpenAPI document is generated from them.
 */
import { z } from 'zod';
import {
  CitationsSchema,
  ExtractionWarningSchema,
  MODEL_OUTPUT_JSON_SCHEMA,
  ReusedSchema,
} from '@xt/contract';

export const ExtractionCompletedSchema = z
  .object({
    id: z.uuid(),
    status: z.literal('completed'),
    output: z
      .unknown()
      .meta({ description: 'JSON shaped by the schema’s structure', ...MODEL_OUTPUT_JSON_SCHEMA }),
    totalTokens: z.int().min(0),
    citations: CitationsSchema.optional().meta({
      description: 'only when created with `citations: true` (docs/citations.md)',
    }),
    warnings: z.array(ExtractionWarningSchema).min(1).optional().meta({
      description: 'what the service knows it left undone; only when non-empty',
    }),
    reused: ReusedSchema,
  })
  .meta({ id: 'ExtractionCompleted' });

export const ExtractionAcceptedSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(['pending', 'processing']),
    output: z.null(),
    totalTokens: z.literal(0),
  })
  .meta({ id: 'ExtractionAccepted', description: 'not finished yet: poll `Location`' });

export type ExtractionCompleted = z.output<typeof ExtractionCompletedSchema>;
export type ExtractionAccepted = z.output<typeof ExtractionAcceptedSchema>;
