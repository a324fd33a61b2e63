import { z } from 'zod';
import { STRUCTURED_OUTPUT_MODES } from '@xt/model';

/** What `GET /v1/models` says of one model: its name and abilities, never where it is served. */
export const ModelSchema = z
  .object({
    id: z.string().meta({ description: 'the name `model` takes on create' }),
    default: z.boolean().meta({ description: 'used when a create names no model' }),
    capabilities: z
      .object({
        structuredOutput: z.enum(STRUCTURED_OUTPUT_MODES).meta({
          description:
            '`json_schema`: the server enforces the schema; `json_object`: it answers JSON and the schema goes in the prompt; `prompt`: the schema goes in the prompt and the JSON is read from the answer (docs/models.md)',
        }),
        images: z.boolean().meta({ description: 'false: pages and images are read as OCR text' }),
        logprobs: z.boolean().meta({
          description: 'false: confidence comes from grounding alone (docs/citations.md)',
        }),
        contextTokens: z.int().nullable().meta({ description: 'null: not told by the server' }),
        outputTokens: z.int().nullable(),
      })
      .nullable()
      .meta({ description: 'null until the model has been probed (on its first extraction)' }),
    probedAt: z.iso.datetime().nullable().meta({
      description:
        'when the capabilities were learned; null for OpenAI and Azure, taken at their documented word, and for a model not probed yet',
    }),
  })
  .meta({ id: 'Model' });

export type ModelInfo = z.infer<typeof ModelSchema>;
