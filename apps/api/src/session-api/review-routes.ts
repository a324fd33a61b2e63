import { Router } from 'express';
import { BlobNotFoundError, type BlobStore } from '@xt/blob-store';
import {
  CELLS_KEY,
  parsePreviewKey,
  previewKey,
  type ExtractionReview,
  type SheetExcerpt,
} from '@xt/contract';
import type { Db } from '@xt/db';
import { findExtractionPreviews } from '@xt/extractions';
import { principalOf } from '../auth/principal.ts';
import { sendOk } from '../http/envelope/envelope.ts';
import { notFound } from '../http/errors/errors.ts';
import { idParam } from '../http/input/validate.ts';

/**
 * Dashboard-only reads of an extraction: what the public records do not carry (the schema's
 * name at creation, the page previews and a spreadsheet's cells the worker stored for
 * citations) and the preview images and cells themselves. Account-scoped like every resource route; another account's id is a 404.
 */
export function reviewRoutes(db: Db, store: BlobStore): Router {
  const router = Router();

  const find = async (accountId: string, id: string) => {
    const row = await findExtractionPreviews(db, accountId, id);
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
      cells: row.pageImages?.[CELLS_KEY] !== undefined,
    };
    sendOk(res, review, 'Extraction review retrieved.');
  });

  const stored = async (ref: string, what: string): Promise<Buffer> => {
    const pieces: Buffer[] = [];
    try {
      for await (const piece of store.get(ref)) pieces.push(piece);
    } catch (err) {
      // Removed with the upload's bytes after the retention period, or with the extraction.
      if (err instanceof BlobNotFoundError) throw notFound(what);
      throw err;
    }
    return Buffer.concat(pieces);
  };

  // A spreadsheet's cells around its cited cells (a SheetExcerpt), as the worker stored them.
  router.get('/extractions/:id/cells', async (req, res) => {
    const row = await find(principalOf(req).accountId, idParam(req.params.id, 'Extraction'));
    const ref = row.pageImages?.[CELLS_KEY];
    if (!ref) throw notFound('Cells');
    const excerpt = JSON.parse((await stored(ref, 'Cells')).toString('utf8')) as SheetExcerpt;
    sendOk(res, excerpt, 'Cells retrieved.');
  });

  // `?part=invoice.pdf` names a page of an email's attachment.
  router.get('/extractions/:id/pages/:page', async (req, res) => {
    const row = await find(principalOf(req).accountId, idParam(req.params.id, 'Extraction'));
    const part = typeof req.query.part === 'string' ? req.query.part : undefined;
    const page = /^[1-9]\d{0,5}$/.test(req.params.page) ? Number(req.params.page) : undefined;
    const ref = page ? row.pageImages?.[previewKey(page, part)] : undefined;
    if (!ref) throw notFound('Page preview');
    const jpeg = await stored(ref, 'Page preview');
    res.setHeader('Content-Type', 'image/jpeg');
    // The session's own data: never kept by a shared cache (the router already says no-store).
    res.send(jpeg);
  });

  return router;
}
