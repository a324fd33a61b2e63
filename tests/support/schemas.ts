import type pg from 'pg';
import type { TestApi } from '@xt/api/testing';

/** The structure most end-to-end files extract with: an invoice's total. */
export const INVOICE_STRUCTURE = {
  type: 'object',
  properties: { total: { type: 'number' } },
} as const;

/** Creates the `Invoice` schema with the API's default key; answers its id. */
export async function createInvoiceSchema(api: TestApi): Promise<string> {
  const res = await api.request('POST', '/v1/schemas', {
    json: { name: 'Invoice', structure: INVOICE_STRUCTURE },
  });
  if (res.status !== 201) throw new Error(`creating the Invoice schema answered ${res.status}`);
  return res.body.data.id as string;
}

/**
 * Inserts a `pending` extraction of the schema, a minute old and with no job: what a create
 * leaves when its enqueue is lost, which only the reconciler can finish. The snapshot is the
 * schema's own, as the API's insert takes it.
 */
export async function insertJoblessExtraction(
  db: Pick<pg.Pool, 'query'>,
  schemaId: string,
  id: string,
): Promise<void> {
  const { rowCount } = await db.query(
    `insert into extractions (id, account_id, schema_id, schema_name, schema_structure,
       source_type, source, model, created_at)
     select $1, account_id, id, name, structure, 'text', 'orphan', 'gpt-4.1',
       now() - interval '1 minute'
       from schemas where id = $2`,
    [id, schemaId],
  );
  if (rowCount !== 1) throw new Error(`no schema ${schemaId} to insert a jobless extraction of`);
}
