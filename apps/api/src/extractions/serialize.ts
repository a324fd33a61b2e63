import { formatTimestamp, type FailureCode } from '@xt/contract';
import type { ExtractionRow } from '@xt/db';

function errorOf(row: ExtractionRow): { code: FailureCode; message: string } | null {
  if (row.status !== 'failed') return null;
  return {
    code: (row.errorCode ?? 'INTERNAL') as FailureCode,
    message: row.errorMessage ?? 'The extraction failed.',
  };
}

/** The list record (§6): `input`/`output`, `totalTokens` as numeric text. */
export function serializeListRecord(row: ExtractionRow) {
  const input: { schema_id: string; type: string; source: string; instruction?: string } = {
    schema_id: row.schemaId,
    type: row.sourceType,
    source: row.source,
  };
  if (row.instruction !== null) input.instruction = row.instruction;
  return {
    id: row.id,
    createdAt: formatTimestamp(row.createdAt),
    charged: row.charged,
    input,
    output: row.status === 'completed' ? row.output : null,
    status: row.status,
    totalTokens: String(row.totalTokens),
    error: errorOf(row),
    metadata: row.metadata,
  };
}

/** The get-by-id record (§6): `source`/`result`, `totalTokens` as a number. */
export function serializeSingleRecord(row: ExtractionRow) {
  return {
    id: row.id,
    schemaId: row.schemaId,
    source: { type: row.sourceType === 'webpage' ? 'url' : row.sourceType, content: row.source },
    result: row.status === 'completed' ? row.output : null,
    status: row.status,
    createdAt: formatTimestamp(row.createdAt),
    totalTokens: row.totalTokens,
    charged: row.charged,
    error: errorOf(row),
    metadata: row.metadata,
    updatedAt: formatTimestamp(row.updatedAt),
  };
}
