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
