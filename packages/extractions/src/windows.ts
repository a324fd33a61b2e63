import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { sumSpend, type GroundingPage, type ImagesAsText, type ModelUsage } from '@xt/contract';
import {
  extractions,
  extractionWindows,
  extractionWindowPdfs,
  extractionWindowSources,
  isForeignKeyViolation,
  type Db,
  type ExtractionWindowRow,
  type WindowAnnotations,
} from '@xt/db';

/**
 * The page windows of a long document (docs/scaling.md#one-large-document): each window's job
 * stores its answer here once, and the extraction's job merges them.
 */
export interface WindowResult {
  extractionId: string;
  windowIndex: number;
  firstPage: number;
  lastPage: number;
  output: unknown;
  annotations: WindowAnnotations;
  truncated: string[];
  grounding: GroundingPage[] | null;
  pageImages: Record<string, string> | null;
  /** What was sent as OCR text in place of the window's images (a model that takes none). */
  imagesAsText: ImagesAsText | null;
  tokens: number;
  usage: ModelUsage;
  calls: number;
}

/**
 * Stores a window's answer, once: a second run of the same window (a retry after a lost answer,
 * a stalled lock handed on) finds the first's row and writes nothing, so its tokens count once.
 * Only while the extraction is `processing`; false when nothing was written (already stored,
 * the extraction deleted or finished).
 */
export async function recordWindow(db: Db, result: WindowResult): Promise<boolean> {
  try {
    const rows = await db
      .insert(extractionWindows)
      .select(
        db
          .select({
            extractionId: sql`${result.extractionId}::uuid`.as('extraction_id'),
            windowIndex: sql`${result.windowIndex}::integer`.as('window_index'),
            firstPage: sql`${result.firstPage}::integer`.as('first_page'),
            lastPage: sql`${result.lastPage}::integer`.as('last_page'),
            output: sql`${JSON.stringify(result.output ?? null)}::json`.as('output'),
            annotations: sql`${JSON.stringify(result.annotations)}::jsonb`.as('annotations'),
            truncated: sql`${JSON.stringify(result.truncated)}::jsonb`.as('truncated'),
            grounding: sql`${result.grounding ? JSON.stringify(result.grounding) : null}::jsonb`.as(
              'grounding',
            ),
            pageImages:
              sql`${result.pageImages ? JSON.stringify(result.pageImages) : null}::jsonb`.as(
                'page_images',
              ),
            imagesAsText:
              sql`${result.imagesAsText ? JSON.stringify(result.imagesAsText) : null}::jsonb`.as(
                'images_as_text',
              ),
            tokens: sql`${result.tokens}::integer`.as('tokens'),
            usage: sql`${JSON.stringify(result.usage)}::jsonb`.as('usage'),
            calls: sql`${result.calls}::integer`.as('calls'),
            createdAt: sql`now()`.as('created_at'),
          })
          .from(extractions)
          .where(
            and(eq(extractions.id, result.extractionId), eq(extractions.status, 'processing')),
          ),
      )
      .onConflictDoNothing()
      .returning({ windowIndex: extractionWindows.windowIndex });
    return rows.length > 0;
  } catch (err) {
    // Deleted between the look and the insert: nothing is kept for it.
    if (isForeignKeyViolation(err, 'extraction_windows_extraction_id_extractions_id_fk'))
      return false;
    throw err;
  }
}

/** The stored windows of an extraction, in page order. */
export function listWindows(db: Db, extractionId: string): Promise<ExtractionWindowRow[]> {
  return db
    .select()
    .from(extractionWindows)
    .where(eq(extractionWindows.extractionId, extractionId))
    .orderBy(asc(extractionWindows.windowIndex));
}

/** Which windows are stored, and the pages they hold: the progress of a windowed extraction. */
export async function storedWindows(
  db: Db,
  extractionId: string,
): Promise<{ indexes: number[]; pages: number; tokens: number; usage: ModelUsage }> {
  const rows = await db
    .select({
      windowIndex: extractionWindows.windowIndex,
      firstPage: extractionWindows.firstPage,
      lastPage: extractionWindows.lastPage,
      tokens: extractionWindows.tokens,
      usage: extractionWindows.usage,
    })
    .from(extractionWindows)
    .where(eq(extractionWindows.extractionId, extractionId));
  return {
    indexes: rows.map((r) => r.windowIndex).sort((a, b) => a - b),
    pages: rows.reduce((n, r) => n + r.lastPage - r.firstPage + 1, 0),
    ...sumSpend(rows),
  };
}

/** The row of an extraction while it is `processing`, else what became of it. */
export async function processingRow(
  db: Db,
  id: string,
): Promise<
  | { kind: 'processing'; row: typeof extractions.$inferSelect }
  | { kind: 'gone' }
  | { kind: 'final' }
> {
  const [row] = await db.select().from(extractions).where(eq(extractions.id, id));
  if (!row) return { kind: 'gone' };
  return row.status === 'processing' ? { kind: 'processing', row } : { kind: 'final' };
}

/**
 * Removes the windows of extractions final for longer than `retentionMs`: what they hold (the
 * pages as read, the answers) is a copy of the source, kept no longer than its bytes
 * (UPLOAD_RETENTION_HOURS). The previews only they referenced are then left to the orphan sweep.
 */
export async function removeExpiredWindows(
  db: Db,
  retentionMs: number,
): Promise<{ windows: number; refs: string[] }> {
  const expired = sql`e.status in ('completed', 'failed')
      and e.finished_at < now() - ${`${retentionMs} milliseconds`}::interval`;
  const gone = await db.execute<{ extraction_id: string }>(sql`
    delete from ${extractionWindows} w using ${extractions} e
    where w.extraction_id = e.id and ${expired}
    returning w.extraction_id`);
  const sources = await db.execute<{ ref: string }>(sql`
    delete from ${extractionWindowSources} s using ${extractions} e
    where s.extraction_id = e.id and ${expired}
    returning s.ref`);
  const pdfs = await db.execute<{ ref: string }>(sql`
    delete from ${extractionWindowPdfs} p using ${extractions} e
    where p.extraction_id = e.id and ${expired}
    returning p.ref`);
  return {
    windows: gone.rows.length,
    refs: [...sources.rows, ...pdfs.rows].map((r) => r.ref),
  };
}

/**
 * Keeps the PDF a long document was converted to, for its windows to read (once: a second
 * conversion's is not kept, and false says so). Only while the extraction is `processing`.
 */
export async function recordWindowSource(
  db: Db,
  extractionId: string,
  source: { ref: string; notesPages: boolean },
): Promise<boolean> {
  try {
    const rows = await db
      .insert(extractionWindowSources)
      .select(
        db
          .select({
            extractionId: extractions.id,
            ref: sql`${source.ref}`.as('ref'),
            notesPages: sql`${source.notesPages}::boolean`.as('notes_pages'),
            createdAt: sql`now()`.as('created_at'),
          })
          .from(extractions)
          .where(and(eq(extractions.id, extractionId), eq(extractions.status, 'processing'))),
      )
      .onConflictDoNothing()
      .returning({ ref: extractionWindowSources.ref });
    return rows.length > 0;
  } catch (err) {
    if (isForeignKeyViolation(err, 'extraction_window_sources_extraction_id_extractions_id_fk'))
      return false;
    throw err;
  }
}

/** A page window's own PDF (docs/scaling.md#one-large-document), as the window job reads it. */
export interface WindowPdf {
  windowIndex: number;
  ref: string;
  firstPage: number;
  lastPage: number;
  notesPages: boolean;
}

/**
 * Keeps the windows' own PDFs, cut from the document by the extraction's job, each once: a
 * window kept before (a second run of the job after a crash) keeps its first PDF, the same
 * pages. Only while the extraction is `processing`. Returns the refs not kept, for the caller
 * to remove.
 */
export async function recordWindowPdfs(
  db: Db,
  extractionId: string,
  pdfs: WindowPdf[],
): Promise<string[]> {
  if (pdfs.length === 0) return [];
  try {
    const values = sql.join(
      pdfs.map(
        (p) =>
          sql`(${p.windowIndex}::integer, ${p.ref}, ${p.firstPage}::integer, ${p.lastPage}::integer, ${p.notesPages}::boolean)`,
      ),
      sql`, `,
    );
    const kept = await db.execute<{ ref: string }>(sql`
      insert into ${extractionWindowPdfs}
        (extraction_id, window_index, ref, first_page, last_page, notes_pages)
      select e.id, v.window_index, v.ref, v.first_page, v.last_page, v.notes_pages
      from ${extractions} e,
        (values ${values}) as v(window_index, ref, first_page, last_page, notes_pages)
      where e.id = ${extractionId} and e.status = 'processing'
      on conflict do nothing
      returning ref`);
    const keptRefs = new Set(kept.rows.map((r) => r.ref));
    return pdfs.map((p) => p.ref).filter((ref) => !keptRefs.has(ref));
  } catch (err) {
    if (isForeignKeyViolation(err, 'extraction_window_pdfs_extraction_id_extractions_id_fk'))
      return pdfs.map((p) => p.ref);
    throw err;
  }
}

/** Which windows' own PDFs are kept, by window index. */
export async function windowPdfIndexes(db: Db, extractionId: string): Promise<number[]> {
  const rows = await db
    .select({ windowIndex: extractionWindowPdfs.windowIndex })
    .from(extractionWindowPdfs)
    .where(eq(extractionWindowPdfs.extractionId, extractionId));
  return rows.map((r) => r.windowIndex);
}

/** A window's own PDF, when the extraction's job cut one for it. */
export async function windowPdf(
  db: Db,
  extractionId: string,
  windowIndex: number,
): Promise<WindowPdf | undefined> {
  const [row] = await db
    .select({
      windowIndex: extractionWindowPdfs.windowIndex,
      ref: extractionWindowPdfs.ref,
      firstPage: extractionWindowPdfs.firstPage,
      lastPage: extractionWindowPdfs.lastPage,
      notesPages: extractionWindowPdfs.notesPages,
    })
    .from(extractionWindowPdfs)
    .where(
      and(
        eq(extractionWindowPdfs.extractionId, extractionId),
        eq(extractionWindowPdfs.windowIndex, windowIndex),
      ),
    );
  return row;
}

/**
 * The converted PDF a long document's windows read, when it was converted for them: only
 * windows split before each window had a PDF of its own (`windowPdf`) read it.
 */
export async function windowSource(
  db: Db,
  extractionId: string,
): Promise<{ ref: string; notesPages: boolean } | undefined> {
  const [row] = await db
    .select({ ref: extractionWindowSources.ref, notesPages: extractionWindowSources.notesPages })
    .from(extractionWindowSources)
    .where(eq(extractionWindowSources.extractionId, extractionId));
  return row;
}

/**
 * Of `refs`, those a long document's windows reference: their previews, their own PDFs, and
 * the PDF a document was converted to for them (kept by the orphan sweep).
 */
export async function windowRefs(db: Db, refs: string[]): Promise<string[]> {
  if (refs.length === 0) return [];
  const rows = await db.execute<{ ref: string }>(sql`
    select p.value as ref from ${extractionWindows}, jsonb_each_text(${extractionWindows.pageImages}) p
    where ${extractionWindows.pageImages} is not null and ${inArray(sql`p.value`, refs)}
    union
    select ${extractionWindowSources.ref} as ref from ${extractionWindowSources}
    where ${inArray(extractionWindowSources.ref, refs)}
    union
    select ${extractionWindowPdfs.ref} as ref from ${extractionWindowPdfs}
    where ${inArray(extractionWindowPdfs.ref, refs)}`);
  return rows.rows.map((r) => r.ref);
}
