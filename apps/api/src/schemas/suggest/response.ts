/**
 * What `POST /schemas/suggest` and `POST /schemas/convert` answer, as zod schemas: the routes
 * are typed from these and the OpenAPI document is generated from them.
 */
import { z } from 'zod';
import {
  CitationsSchema,
  ExtractionWarningSchema,
  MODEL_OUTPUT_JSON_SCHEMA,
  UploadedFileSchema,
} from '@xt/contract';
import { StructureSchema } from '../response.ts';

const FieldsFoundSchema = z
  .object({
    found: z.array(z.string()).meta({ description: 'draft fields this sample gave a value for' }),
    missing: z
      .array(z.string())
      .meta({ description: 'draft fields this sample left null or empty' }),
    share: z.number().min(0).max(1).meta({ description: 'found / all draft fields, 0 to 1' }),
  })
  .meta({ id: 'FieldsFound' });

export const SuggestionSchema = z
  .object({
    id: z.uuid().meta({
      description:
        'the suggestion; its extractions name it as schema_id (`GET /extractions?schema_id=<id>`)',
    }),
    structure: StructureSchema.meta({
      description: 'the draft: `POST /schemas` takes it as it is',
    }),
    samples: z.array(
      z.object({
        file: UploadedFileSchema,
        extractionId: z.uuid().meta({ description: 'the draft run on this sample' }),
        output: z
          .unknown()
          .meta({ description: 'the draft run’s output', ...MODEL_OUTPUT_JSON_SCHEMA }),
        citations: CitationsSchema.optional(),
        warnings: z.array(ExtractionWarningSchema).min(1).optional(),
        fields: FieldsFoundSchema,
      }),
    ),
    usage: z.object({
      extractions: z
        .array(z.uuid())
        .meta({ description: 'every extraction the suggestion made: drafting and draft runs' }),
      totalTokens: z.int().min(0),
      costUsd: z.number().min(0).meta({ description: 'estimate, summed over those extractions' }),
    }),
  })
  .meta({ id: 'SchemaSuggestion' });

export type Suggestion = z.output<typeof SuggestionSchema>;

export const ConversionSchema = z
  .object({
    structure: StructureSchema.meta({ description: '`POST /schemas` takes it as it is' }),
    dropped: z
      .array(
        z.object({
          path: z.string().meta({ description: 'JSON Pointer into the JSON Schema sent' }),
          reason: z.string(),
        }),
      )
      .meta({ description: 'what could not be kept, and why; empty when everything was' }),
  })
  .meta({ id: 'SchemaConversion' });

export type Conversion = z.output<typeof ConversionSchema>;
