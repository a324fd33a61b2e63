import { formatTimestamp } from '@xt/contract';
import type { SchemaRow } from '@xt/db';

export function serializeSchema(row: SchemaRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? null,
    structure: row.structure,
    createdAt: formatTimestamp(row.createdAt),
    updatedAt: formatTimestamp(row.updatedAt),
  };
}
