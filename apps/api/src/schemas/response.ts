/**
 * A schema resource as the API shows it, and its `structure`, as zod schemas. The structure is
 * checked by `validateStructure` (which names every breach in one 422, something a plain zod
 * parse cannot word as well); this schema describes the same rules for the OpenAPI document and
 * is typed against `Structure`, so a change to the type without the description fails to compile.
 */
import { z } from 'zod';
import {
  FIELD_NAME,
  FIELD_TYPES,
  ReviewPolicySchema,
  STRUCTURE_LIMITS,
  TimestampSchema,
  type FieldDefinition,
  type FieldType,
  type Structure,
} from '@xt/contract';

const lengthBound = z
  .union([z.int().min(0), z.string().regex(/^\d+$/)])
  .meta({ description: 'a non-negative integer, as a number or numeric text; strings only' });

const fieldName = z.string().regex(FIELD_NAME);

// Strict in requests too (validateStructure refuses unknown attributes), so requests and
// responses share one `FieldDefinition` component instead of an input and an output copy.
export const FieldDefinitionSchema: z.ZodType<FieldDefinition> = z
  .strictObject({
    type: z.enum(FIELD_TYPES as readonly [FieldType, ...FieldType[]]),
    describe: z.string().optional().meta({ description: 'guidance for the model' }),
    description: z.string().optional().meta({ description: 'guidance for the model' }),
    required: z.boolean().optional(),
    minLength: lengthBound.optional(),
    maxLength: lengthBound.optional(),
    enum: z.array(z.string()).min(1).optional().meta({ description: 'strings only; distinct' }),
    get properties(): z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodType<FieldDefinition>>> {
      return z.record(fieldName, FieldDefinitionSchema).optional();
    },
    get items(): z.ZodOptional<z.ZodType<FieldDefinition>> {
      return FieldDefinitionSchema.optional();
    },
  })
  .meta({
    id: 'FieldDefinition',
    description:
      '`properties` is required for `object`, `items` for `array`; docs/api.md#structure-rules',
  });

export const StructureSchema: z.ZodType<Structure> = z
  .intersection(FieldDefinitionSchema, z.looseObject({ type: z.enum(['object', 'array']) }))
  .meta({
    id: 'Structure',
    description: `The root: \`object\` with \`properties\` or \`array\` with \`items\`. At most ${STRUCTURE_LIMITS.maxDepth} levels deep, ${STRUCTURE_LIMITS.maxFields} field definitions and 64 KiB. Stored and returned exactly as submitted.`,
  });

export const SchemaRecordSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    structure: StructureSchema,
    review: ReviewPolicySchema.optional().meta({
      description:
        'when completed extractions are queued for human review; present only when set (docs/review.md)',
    }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Schema' });

export type SchemaRecord = z.output<typeof SchemaRecordSchema>;
