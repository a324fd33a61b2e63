import type { FailureCode } from './failure-codes.ts';
import type { ExtractionStatus, SourceType } from './states.ts';
import { formatTimestamp } from './time.ts';

/** What the records show of an uploaded file. */
export interface UploadedFile {
  name: string;
  size: number;
  contentType: string;
  sha256: string;
  /** When the bytes were removed after the retention period; absent while they are stored. */
  removedAt?: string;
}

/**
 * The public records of an extraction, built from what is stored. Shared by the API (which
 * answers with them) and the worker (which sends the single record in webhook events), so the
 * two can never disagree. `ExtractionRow` of `@xt/db` has this shape.
 */
export interface StoredExtraction {
  id: string;
  schemaId: string;
  sourceType: SourceType;
  source: string;
  instruction: string | null;
  status: ExtractionStatus;
  output: unknown;
  totalTokens: number;
  charged: boolean;
  errorCode: string | null;
  errorMessage: string | null;
  metadata: Record<string, string>;
  /** An uploaded source's file (docs/uploads.md); null for text and URLs. */
  file: UploadedFile | null;
  createdAt: Date;
  updatedAt: Date;
}

function errorOf(row: StoredExtraction): { code: FailureCode; message: string } | null {
  if (row.status !== 'failed') return null;
  return {
    code: (row.errorCode ?? 'INTERNAL') as FailureCode,
    message: row.errorMessage ?? 'The extraction failed.',
  };
}

/** The list record: `input`/`output`, `totalTokens` as numeric text. */
export function serializeListRecord(row: StoredExtraction) {
  const input: {
    schema_id: string;
    type: string;
    source: string;
    file?: UploadedFile;
    instruction?: string;
  } = {
    schema_id: row.schemaId,
    type: row.sourceType,
    source: row.source,
  };
  if (row.file) input.file = row.file;
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

/** The get-by-id record: `source`/`result`, `totalTokens` as a number. */
export function serializeSingleRecord(row: StoredExtraction) {
  return {
    id: row.id,
    schemaId: row.schemaId,
    source: {
      type: row.sourceType === 'webpage' ? 'url' : row.sourceType,
      content: row.source,
      // An upload: `content` is the file name, and this is the file (docs/uploads.md).
      ...(row.file ? { file: row.file } : {}),
    },
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
