import { and, eq, sql } from 'drizzle-orm';
import { extractions, preparedPerDb, type Db, type ExtractionRow } from '@xt/db';
import { ExtractionNotFound } from './errors.ts';

/** The record reads every poll and every waiting create makes (see preparedPerDb). */
const extractionById = preparedPerDb('extraction_by_id', (db, name) =>
  db
    .select()
    .from(extractions)
    .where(
      and(
        eq(extractions.accountId, sql.placeholder('accountId')),
        eq(extractions.id, sql.placeholder('id')),
      ),
    )
    .prepare(name),
);

/** The account's extraction, or undefined: another account's id reads as none. */
export async function findExtraction(
  db: Db,
  accountId: string,
  id: string,
): Promise<ExtractionRow | undefined> {
  const [row] = await extractionById(db).execute({ accountId, id });
  return row;
}

/** The same, for callers that answer "not found" when there is none. */
export async function getExtraction(db: Db, accountId: string, id: string): Promise<ExtractionRow> {
  const row = await findExtraction(db, accountId, id);
  if (!row) throw new ExtractionNotFound();
  return row;
}

/** An extraction's uploaded file as its records show it and where its bytes are, if any. */
export async function findExtractionFile(db: Db, accountId: string, id: string) {
  const [row] = await db
    .select({ file: extractions.file, fileRef: extractions.fileRef })
    .from(extractions)
    .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)));
  return row;
}

/**
 * What the dashboard's review view needs beyond the record: the schema's name at creation and
 * the page previews (and a spreadsheet's cells) the worker stored for citations.
 */
export async function findExtractionPreviews(db: Db, accountId: string, id: string) {
  const [row] = await db
    .select({ schemaName: extractions.schemaName, pageImages: extractions.pageImages })
    .from(extractions)
    .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)));
  return row;
}
