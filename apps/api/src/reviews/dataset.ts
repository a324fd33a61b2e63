import { z } from 'zod';
import { SOURCE_TYPES, UploadedFileSchema } from '@xt/contract';
import type { ExtractionRow } from '@xt/db';

/**
 * One case of the evaluation data set a schema's approved extractions make (docs/review.md):
 * the source as it was sent, the reviewed output as the expected answer, and the output as the
 * model read it, so an evaluation can score the model before review as well as a new run.
 */
export const DatasetCaseSchema = z
  .object({
    case: z.string().meta({ description: 'the case’s name in the data set: the extraction id' }),
    extractionId: z.uuid(),
    type: z.enum(SOURCE_TYPES),
    source: z.string().meta({ description: 'the text, the URL, or an uploaded file’s name' }),
    file: UploadedFileSchema.nullable().meta({
      description:
        'an uploaded source: its bytes are at `GET /extractions/{id}/file` until `removedAt`',
    }),
    expected: z.unknown().meta({ description: 'the reviewed result: `reviewedResult`' }),
    recorded: z.unknown().meta({ description: 'the result as the model read it: `result`' }),
  })
  .meta({ id: 'DatasetCase' });

export type DatasetCase = z.output<typeof DatasetCaseSchema>;

export function datasetCase(row: ExtractionRow): DatasetCase {
  return {
    case: row.id,
    extractionId: row.id,
    type: row.sourceType,
    source: row.source,
    file: row.file ?? null,
    expected: row.reviewedOutput,
    recorded: row.output,
  };
}
