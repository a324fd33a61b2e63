import { Router } from 'express';
import { parseAllowlist } from '@xt/fetcher';
import { principalOf } from '../auth/principal.ts';
import { parseBodyObject, jsonBody } from '../http/input/body.ts';
import { sendOk } from '../http/envelope/envelope.ts';
import { listQueryOr422 } from '../http/listing/list.ts';
import { idParam } from '../http/input/validate.ts';
import { parseEndpointBody, type EndpointInput } from './body.ts';
import { serializeAttempt, serializeEndpoint, serializeEndpointWithSecret } from './serialize.ts';
import type { WebhookService } from './service.ts';
import { sendPage } from '../http/listing/page-links.ts';

const WHAT = 'Webhook endpoint';

export const WEBHOOK_BODY_LIMIT = '16kb';

export function webhookRoutes(
  service: WebhookService,
  options: { basePath: string; allowlist: string },
): Router {
  const router = Router();
  const json = jsonBody(WEBHOOK_BODY_LIMIT);
  const allowlist = parseAllowlist(options.allowlist);

  router.post('/webhooks', ...json, async (req, res) => {
    const input = await parseBodyObject(req.body, (body) =>
      parseEndpointBody(body, 'full', allowlist),
    );
    const row = await service.create(principalOf(req).accountId, input as EndpointInput);
    res.setHeader('Location', `${options.basePath}/webhooks/${row.id}`);
    sendOk(res, serializeEndpointWithSecret(row), 'Webhook endpoint created.', 201);
  });

  router.get('/webhooks', async (req, res) => {
    const q = listQueryOr422(req.query);
    const { rows, meta } = await service.list(principalOf(req).accountId, q);
    sendPage(req, res, { data: rows.map(serializeEndpoint), meta }, 'Webhook endpoints retrieved.');
  });

  router.get('/webhooks/:id', async (req, res) => {
    const row = await service.get(principalOf(req).accountId, idParam(req.params.id, WHAT));
    sendOk(res, serializeEndpoint(row), 'Webhook endpoint retrieved.');
  });

  router.patch('/webhooks/:id', ...json, async (req, res) => {
    const id = idParam(req.params.id, WHAT);
    const accountId = principalOf(req).accountId;
    // Another account's id is a 404 even when the body is also wrong: look before validating.
    await service.get(accountId, id);
    const patch = await parseBodyObject(req.body, (body) =>
      parseEndpointBody(body, 'partial', allowlist),
    );
    const row = await service.update(accountId, id, patch);
    sendOk(res, serializeEndpoint(row), 'Webhook endpoint updated.');
  });

  router.delete('/webhooks/:id', async (req, res) => {
    await service.delete(principalOf(req).accountId, idParam(req.params.id, WHAT));
    sendOk(res, {}, 'Webhook endpoint deleted.');
  });

  router.post('/webhooks/:id/rotate-secret', async (req, res) => {
    const row = await service.rotateSecret(
      principalOf(req).accountId,
      idParam(req.params.id, WHAT),
    );
    sendOk(res, serializeEndpointWithSecret(row), 'Webhook secret rotated.');
  });

  router.get('/webhooks/:id/deliveries', async (req, res) => {
    const id = idParam(req.params.id, WHAT);
    const q = listQueryOr422(req.query);
    const { rows, meta } = await service.deliveries(principalOf(req).accountId, id, q);
    sendPage(req, res, { data: rows.map(serializeAttempt), meta }, 'Webhook deliveries retrieved.');
  });

  return router;
}
