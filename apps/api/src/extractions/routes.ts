import express, { Router, type Request, type RequestHandler, type Response } from 'express';

import { parseAllowlist } from '@xt/fetcher';
import type { ApiConfig } from '../config.ts';
import { principalOf } from '../auth/principal.ts';
import {
  acceptBody,
  multipartBoundary,
  parseBodyObject,
  defaultEmptyBody,
} from '../http/input/body.ts';
import { sendOk } from '../http/envelope/envelope.ts';
import { listQueryOr422 } from '../http/listing/list.ts';
import { idParam } from '../http/input/validate.ts';
import { multipartParser, receivedFile, receivedPaths } from '../uploads/receive.ts';
import type { UploadTempDir } from '../uploads/temp-files.ts';
import { parseExtractionBody } from './body.ts';
import { decideWait } from './prefer.ts';
import { namingUnknownSchema } from './unknown-schema.ts';
import {
  idempotencyRequest,
  readIdempotencyKey,
  REPLAYED_HEADER,
  withKeyCheck,
} from '../idempotency/index.ts';
import { failureAsHttpError, type ExtractionService } from './service.ts';
import type { ExtractionAccepted, ExtractionCompleted } from './response.ts';
import { serializeListRecord, serializeSingleRecord } from '@xt/contract';
import { sendPage } from '../http/listing/page-links.ts';

const FORM_TYPES = [
  'multipart/form-data',
  'application/json',
  'application/*+json',
  'application/x-www-form-urlencoded',
];

/** One body parser per accepted content type, chosen by the request's Content-Type. */
function createBodyParsers(config: ApiConfig, temp: UploadTempDir): RequestHandler[] {
  // UTF-8 text can take up to 4 bytes a character; the rest is room for the other fields.
  const textBytes = config.MAX_TEXT_CHARS * 4 + 64 * 1024;
  // JSON and urlencoded bodies may carry a file as a base64 data: URL (4 characters per 3 bytes),
  // but they are buffered and parsed in memory: MAX_JSON_BODY_BYTES caps them (docs/uploads.md).
  const maxBytes = Math.min(
    config.MAX_JSON_BODY_BYTES,
    Math.max(textBytes, Math.ceil(config.MAX_UPLOAD_BYTES / 3) * 4 + 64 * 1024),
  );
  // Multipart files stream to a temp file; only the text fields are held in memory.
  const multipart = multipartParser({
    temp,
    maxUploadBytes: config.MAX_UPLOAD_BYTES,
    maxFieldBytes: textBytes,
  });
  return [
    multipartBoundary,
    acceptBody(FORM_TYPES),
    (req, res, next) => {
      if (req.is('multipart/form-data')) {
        multipart(req, res, next);
        return;
      }
      next();
    },
    express.json({ limit: maxBytes, type: ['application/json', 'application/*+json'] }),
    express.urlencoded({ limit: maxBytes, extended: false, parameterLimit: 50 }),
    defaultEmptyBody,
  ];
}

export function extractionRoutes(
  service: ExtractionService,
  config: ApiConfig,
  temp: UploadTempDir,
): Router {
  const router = Router();
  const allowlist = parseAllowlist(config.SOURCE_ALLOWLIST);

  router.post('/extractions', ...createBodyParsers(config, temp), async (req, res) => {
    try {
      await createExtraction(req, res);
    } finally {
      // The bytes are in the store (or refused): the temp file has done its job either way.
      await Promise.all(receivedPaths(req).map((p) => temp.remove(p)));
    }
  });

  async function createExtraction(req: Request, res: Response): Promise<void> {
    const principal = principalOf(req);
    const key = readIdempotencyKey(req);
    const input = await namingUnknownSchema(
      withKeyCheck(key, () =>
        parseBodyObject(
          req.body,
          (body) =>
            parseExtractionBody(body, {
              maxTextChars: config.MAX_TEXT_CHARS,
              maxUploadBytes: config.MAX_UPLOAD_BYTES,
              allowlist,
              // Forms carry metadata as a JSON string; JSON bodies as an object.
              form: !req.is(['application/json', 'application/*+json']),
              files: receivedFile(req),
              models: config.models,
            }),
          ['metadata', 'split'],
        ),
      ),
      req.body,
      (schemaId) => service.schemaExists(principal.accountId, schemaId),
    );
    const wait = decideWait(req.get('prefer'), config.EXTRACTION_WAIT_SECONDS);

    // A client that goes away stops the waiting, never the extraction.
    const gone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) gone.abort();
    };
    res.on('close', onClose);
    try {
      const outcome = await service.create(principal.accountId, input, {
        requestId: req.id,
        traceparent: req.traceparent,
        waitSeconds: wait.seconds,
        receivedAt: req.receivedAt,
        signal: gone.signal,
        log: req.log,
        // An upload counts by its content (SHA-256), the fields by their values. `citations`
        // counts only when true, so keys remembered from before the field existed still match
        // requests without it.
        idempotency: idempotencyRequest(
          key,
          '/extractions',
          { ...input, upload: undefined, citations: input.citations || undefined },
          input.upload?.file.sha256,
        ),
      });
      if (gone.signal.aborted) return;
      if (wait.applied) res.setHeader('Preference-Applied', wait.applied);
      if (outcome.replayed) res.setHeader(REPLAYED_HEADER, 'true');
      const row = outcome.row;
      if (outcome.kind === 'finished' && row.status === 'completed') {
        // citations and warnings exactly as the records show them (docs/citations.md#api).
        const { citations, warnings, reused } = serializeSingleRecord(row);
        const completed: ExtractionCompleted = {
          id: row.id,
          status: row.status,
          output: row.output,
          totalTokens: row.totalTokens,
          ...(citations ? { citations } : {}),
          ...(warnings ? { warnings } : {}),
          ...(reused ? { reused } : {}),
        };
        sendOk(res, completed, 'Extraction completed.');
        return;
      }
      if (outcome.kind === 'finished') throw failureAsHttpError(row);
      res.setHeader('Location', `/v1/extractions/${row.id}`);
      res.setHeader(
        'Retry-After',
        String(outcome.kind === 'accepted' ? outcome.retryAfterSeconds : 5),
      );
      const accepted: ExtractionAccepted = {
        id: row.id,
        // 'accepted' is only ever a row that was not final when the service last looked.
        status: row.status as ExtractionAccepted['status'],
        output: null,
        totalTokens: 0,
      };
      sendOk(res, accepted, 'Extraction accepted; poll its Location for the result.', 202);
    } finally {
      res.off('close', onClose);
    }
  }

  router.get('/extractions', async (req, res) => {
    const q = listQueryOr422(req.query, { extraction: true, parent: true });
    const { rows, meta } = await service.list(principalOf(req).accountId, q);
    sendPage(req, res, { data: rows.map(serializeListRecord), meta }, 'Extractions retrieved.');
  });

  router.get('/extractions/:id', async (req, res) => {
    const row = await service.get(principalOf(req).accountId, idParam(req.params.id, 'Extraction'));
    sendOk(res, serializeSingleRecord(row), 'Extraction retrieved.');
  });

  router.delete('/extractions/:id', async (req, res) => {
    await service.delete(principalOf(req).accountId, idParam(req.params.id, 'Extraction'), req.log);
    sendOk(res, {}, 'Extraction deleted.');
  });

  return router;
}
