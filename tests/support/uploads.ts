/**
 * Uploading a file as an asynchronous extraction and waiting for its row to be final, for tests
 * that look at how a hostile file fails (its code, its message, whether it was charged).
 */
import type pg from 'pg';
import { expect } from 'vitest';
import { waitFor } from '@xt/testkit';
import type { TestApi } from '@xt/api/testing';

export interface FinalRow {
  status: 'completed' | 'failed';
  charged: boolean;
  total_tokens: number;
  error_code: string | null;
  error_message: string | null;
}

/** Creates the extraction (202 expected) and returns its row once completed or failed. */
export async function uploadAndWait(
  api: TestApi,
  db: pg.Pool,
  file: { schemaId: string; type: string; bytes: Buffer; name: string },
): Promise<FinalRow> {
  const form = new FormData();
  form.append('schema_id', file.schemaId);
  form.append('type', file.type);
  form.append('source', new Blob([file.bytes]), file.name);
  const res = await api.request('POST', '/v1/extractions', {
    body: form,
    headers: { prefer: 'respond-async' },
  });
  expect(res.status, `${file.name}: ${JSON.stringify(res.body)}`).toBe(202);
  const id = res.body.data.id as string;
  return waitFor(async () => {
    const r = await db.query(
      'select status, charged, total_tokens::int as total_tokens, error_code, error_message from extractions where id = $1',
      [id],
    );
    const row = r.rows[0] as FinalRow | undefined;
    return row && ['completed', 'failed'].includes(row.status) ? row : undefined;
  }, 180_000);
}
