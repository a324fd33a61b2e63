import { formatTimestamp } from '@xt/contract';
import type { SchemaRow } from '@xt/db';
import type { SchemaRecord } from './response.ts';

export function serializeSchema(row: SchemaRow): SchemaRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? null,
    // Stored only after validateStructure passed, and returned verbatim.
    structure: row.structure,
    // Only on a schema that has review settings (docs/review.md).
    ...(row.review ? { review: row.review } : {}),
    createdAt: formatTimestamp(row.createdAt),
    updatedAt: formatTimestamp(row.updatedAt),
  };
}
