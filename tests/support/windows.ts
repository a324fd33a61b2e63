/**
 * What the page-window tests read back: an extraction's final record, its rows in the database,
 * and the PDF of its own each window read. Shared by the upload and URL page-window files.
 */
import pg from 'pg';
import { pdfPageCount } from '@xt/testkit/fixtures';
import { waitFor, type RecordedRequest } from '@xt/testkit';
import type { TestApi } from '@xt/api/testing';

/** The document's pages a model request carried (its page markers). */
export const pagesOf = (request: RecordedRequest) =>
  [...request.text.matchAll(/--- Page (\d+) ---/g)].map((m) => Number(m[1]));

/** The extraction once completed or failed, polled through the API. */
export async function finished(api: TestApi, id: string, timeoutMs: number) {
  return waitFor(
    async () => {
      const res = await api.request('GET', `/v1/extractions/${id}`);
      return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
    },
    timeoutMs,
    500,
  );
}

/** One query on a connection of its own to the stack's database. */
export async function query<T>(api: TestApi, sql: string, params: unknown[]): Promise<T[]> {
  const db = new pg.Client({ connectionString: api.database.url });
  await db.connect();
  try {
    return (await db.query(sql, params)).rows as T[];
  } finally {
    await db.end();
  }
}

/**
 * The PDF of its own each window read, cut from the document by the extraction's job: its
 * pages, as the window's row says and as the bytes in the blob store hold.
 */
export async function windowPdfs(api: TestApi, id: string) {
  const rows = await query<{ ref: string; first_page: number; last_page: number }>(
    api,
    'select ref, first_page, last_page from extraction_window_pdfs where extraction_id = $1 order by window_index',
    [id],
  );
  return Promise.all(
    rows.map(async (r) => {
      const chunks = await query<{ data: Buffer }>(
        api,
        'select data from blob_chunks where ref = $1 order by seq',
        [r.ref],
      );
      const bytes = Buffer.concat(chunks.map((c) => c.data));
      return { first: r.first_page, last: r.last_page, pages: await pdfPageCount(bytes) };
    }),
  );
}
