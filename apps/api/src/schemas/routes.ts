import { Router } from 'express';
import { principalOf } from '../auth/principal.ts';
import { parseBodyObject, jsonBody } from '../http/input/body.ts';
import { sendOk } from '../http/envelope/envelope.ts';
import { listQueryOr422 } from '../http/listing/list.ts';
import { idParam } from '../http/input/validate.ts';
import {
  idempotencyRequest,
  readIdempotencyKey,
  REPLAYED_HEADER,
  withKeyCheck,
} from '../idempotency/index.ts';
import { parseSchemaBody, type SchemaInput } from './body.ts';
import type { SchemaService } from './service.ts';
import { serializeSchema } from './serialize.ts';
import { sendPage } from '../http/listing/page-links.ts';

// Structure is capped at 64 KiB; leave room for name, description and JSON escaping.
export const SCHEMA_BODY_LIMIT = '256kb';

export function schemaRoutes(service: SchemaService, basePath: string): Router {
  const router = Router();
  const json = jsonBody(SCHEMA_BODY_LIMIT);

  router.post('/schemas', ...json, async (req, res) => {
    const key = readIdempotencyKey(req);
    const input = withKeyCheck(key, () =>
      parseBodyObject(req.body, (body) => parseSchemaBody(body, 'full')),
    );
    const { row, replayed } = await service.create(
      principalOf(req).accountId,
      input as SchemaInput,
      idempotencyRequest(key, '/schemas', input),
    );
    if (replayed) res.setHeader(REPLAYED_HEADER, 'true');
    res.setHeader('Location', `${basePath}/schemas/${row.id}`);
    sendOk(res, serializeSchema(row), 'Schema created.', 201);
  });

  router.get('/schemas', async (req, res) => {
    const q = listQueryOr422(req.query);
    const { rows, meta } = await service.list(principalOf(req).accountId, q);
    sendPage(req, res, { data: rows.map(serializeSchema), meta }, 'Schemas retrieved.');
  });

  router.get('/schemas/:id', async (req, res) => {
    const row = await service.get(principalOf(req).accountId, idParam(req.params.id, 'Schema'));
    sendOk(res, serializeSchema(row), 'Schema retrieved.');
  });

  router.put('/schemas/:id', ...json, async (req, res) => {
    const id = idParam(req.params.id, 'Schema');
    const input = parseBodyObject(req.body, (body) => parseSchemaBody(body, 'full'));
    const row = await service.update(principalOf(req).accountId, id, input);
    sendOk(res, serializeSchema(row), 'Schema updated.');
  });

  router.patch('/schemas/:id', ...json, async (req, res) => {
    const id = idParam(req.params.id, 'Schema');
    const patch = parseBodyObject(req.body, (body) => parseSchemaBody(body, 'partial'));
    const row = await service.update(principalOf(req).accountId, id, patch);
    sendOk(res, serializeSchema(row), 'Schema updated.');
  });

  router.delete('/schemas/:id', async (req, res) => {
    await service.delete(principalOf(req).accountId, idParam(req.params.id, 'Schema'));
    sendOk(res, {}, 'Schema deleted.');
  });

  return router;
}
