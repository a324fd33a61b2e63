import { Router } from 'express';
import { and, eq } from 'drizzle-orm';
import { BlobNotFoundError, type BlobStore } from '@xt/blob-store';
import { parsePreviewKey, previewKey, type ExtractionReview } from '@xt/contract';
import { extractions, type Db } from '@xt/db';
import { principalOf } from '../auth/principal.ts';
import { sendOk } from '../http/envelope.ts';
import { notFound } from '../http/errors.ts';
import { idParam } from '../http/validate.ts';

/**
 * Dashboard-only reads of an extraction: what the public records do not carry (the schema's
 * name at creation, the page previews the worker stored for citations) and the preview images
 * themselves. Account-scoped like every resource route; another account's id is a 404.
 */
export function reviewRoutes(db: Db, store: BlobStore): Router {
  const router = Router();

  const find = async (accountId: string, id: string) => {
    const [row] = await db
      .select({ schemaName: extractions.schemaName, pageImages: extractions.pageImages })
      .from(extractions)
      .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)));
    if (!row) throw notFound('Extraction');
    return row;
  };

  router.get('/extractions/:id/review', async (req, res) => {
    const row = await find(principalOf(req).accountId, idParam(req.params.id, 'Extraction'));
    const previewPages: number[] = [];
    const partPreviews: Record<string, number[]> = {};
    for (const key of Object.keys(row.pageImages ?? {})) {
      const stored = parsePreviewKey(key);
      if (!stored) continue;
      if (stored.part === undefined) previewPages.push(stored.page);
      else (partPreviews[stored.part] ??= []).push(stored.page);
    }
    const ascending = (pages: number[]) => pages.sort((a, b) => a - b);
    for (const pages of Object.values(partPreviews)) ascending(pages);
    const review: ExtractionReview = {
      schemaName: row.schemaName,
      previewPages: ascending(previewPages),
      partPreviews,
    };
    sendOk(res, review, 'Extraction review retrieved.');
  });

  // `?part=invoice.pdf` names a page of an email's attachment.
  router.get('/extractions/:id/pages/:page', async (req, res) => {
    const row = await find(principalOf(req).accountId, idParam(req.params.id, 'Extraction'));
    const part = typeof req.query.part === 'string' ? req.query.part : undefined;
    const page = /^[1-9]\d{0,5}$/.test(req.params.page) ? Number(req.params.page) : undefined;
    const ref = page ? row.pageImages?.[previewKey(page, part)] : undefined;
    if (!ref) throw notFound('Page preview');
    const pieces: Buffer[] = [];
    try {
      for await (const piece of store.get(ref)) pieces.push(piece);
    } catch (err) {
      // Removed with the upload's bytes after the retention period, or with the extraction.
      if (err instanceof BlobNotFoundError) throw notFound('Page preview');
      throw err;
    }
    res.setHeader('Content-Type', 'image/jpeg');
    // The session's own data: never kept by a shared cache (the router already says no-store).
    res.send(Buffer.concat(pieces));
  });

  return router;
}
