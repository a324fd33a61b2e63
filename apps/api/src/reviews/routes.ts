import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { BlobNotFoundError, type BlobStore } from '@xt/blob-store';
import { serializeSingleRecord } from '@xt/contract';
import { principalOf } from '../auth/principal.ts';
import { jsonBody, parseBodyObject } from '../http/input/body.ts';
import { sendOk } from '../http/envelope/envelope.ts';
import { notFound } from '../http/errors/errors.ts';
import { sendPage } from '../http/listing/page-links.ts';
import { fieldsOf, idParam } from '../http/input/validate.ts';
import { reviewBody, reviewListQuery } from './body.ts';
import { datasetCase } from './dataset.ts';
import type { ReviewService } from './service.ts';

/** Review of completed extractions, and what reviews teach: the data set (docs/review.md). */
export function reviewQueueRoutes(service: ReviewService, store: BlobStore): Router {
  const router = Router();

  router.get('/reviews', async (req, res) => {
    const q = reviewListQuery(req.query ?? {});
    const { rows, meta } = await service.list(principalOf(req).accountId, q);
    sendPage(req, res, { data: rows.map(serializeSingleRecord), meta }, 'Reviews retrieved.');
  });

  router.post('/extractions/:id/review', ...jsonBody('1mb'), async (req, res) => {
    const id = idParam(req.params.id, 'Extraction');
    const body = parseBodyObject(req.body, fieldsOf(reviewBody));
    const row = await service.review(principalOf(req), id, body);
    sendOk(res, serializeSingleRecord(row), 'Extraction reviewed.');
  });

  router.get('/schemas/:id/dataset', async (req, res) => {
    const id = idParam(req.params.id, 'Schema');
    const q = reviewListQuery(req.query ?? {});
    const { rows, meta } = await service.approved(principalOf(req).accountId, id, q);
    sendPage(req, res, { data: rows.map(datasetCase), meta }, 'Data set retrieved.');
  });

  // An uploaded source's bytes, as stored, while they are kept (docs/uploads.md).
  router.get('/extractions/:id/file', async (req, res) => {
    const id = idParam(req.params.id, 'Extraction');
    const row = await service.file(principalOf(req).accountId, id);
    if (!row?.file || !row.fileRef) throw notFound('File');
    const chunks = store.get(row.fileRef)[Symbol.asyncIterator]();
    let first: IteratorResult<Buffer>;
    try {
      first = await chunks.next();
    } catch (err) {
      if (err instanceof BlobNotFoundError) throw notFound('File');
      throw err;
    }
    res.status(200);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Length', String(row.file.size));
    res.setHeader(
      'Content-Disposition',
      `attachment; filename*=UTF-8''${encodeURIComponent(row.file.name)}`,
    );
    async function* rest() {
      if (!first.done) yield first.value;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    }
    await pipeline(Readable.from(rest()), res);
  });

  return router;
}
