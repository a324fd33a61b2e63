/**
 * What `POST /extractions` answers with, as zod schemas (the records of the other routes are in
 * @xt/contract, shared with the worker's webhook events). The route is typed from these and the
 * OpenAPI document is generated from them.
 */
import { z } from 'zod';

export const ExtractionCompletedSchema = z
  .object({
    id: z.uuid(),
    status: z.literal('completed'),
    output: z
      .unknown()
      .meta({ description: 'JSON shaped by the schema’s structure', type: ['object', 'array'] }),
    totalTokens: z.int().min(0),
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
