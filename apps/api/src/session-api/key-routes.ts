import { checkKeys } from '../http/limits/account-bounds.ts';
import { Router } from 'express';
import { z } from 'zod';
import { createAccountKey, listAccountKeys, revokeAccountKey } from '@xt/accounts';
import { formatTimestamp } from '@xt/contract';
import { notFound } from '../http/errors/errors.ts';
import type { Db } from '@xt/db';
import { principalOf } from '../auth/principal.ts';
import { jsonBody, parseBodyObject } from '../http/input/body.ts';
import { sendOk } from '../http/envelope/envelope.ts';
import { fieldsOf, idParam } from '../http/input/validate.ts';

const createBody = z.object({
  label: z
    .string()
    .trim()
    .max(100, 'label must be at most 100 characters')
    .nullish()
    .transform((v) => v || null),
  scope: z.enum(['read', 'write'], 'scope must be read or write'),
});

type KeyRow = Awaited<ReturnType<typeof listAccountKeys>>[number];

const serializeKey = (k: KeyRow) => ({
  id: k.id,
  label: k.label,
  displayPrefix: k.displayPrefix,
  scope: k.scope,
  createdAt: formatTimestamp(k.createdAt),
  lastUsedAt: k.lastUsedAt ? formatTimestamp(k.lastUsedAt) : null,
  revokedAt: k.revokedAt ? formatTimestamp(k.revokedAt) : null,
});

/** The key section: the account's own keys only. The full key is in the create answer alone. */
/** `maxKeys`: active keys one account may hold (MAX_KEYS_PER_ACCOUNT), each its own rate limit. */
export function keyRoutes(db: Db, maxKeys: number): Router {
  const router = Router();

  router.get('/keys', async (req, res) => {
    const rows = await listAccountKeys(db, principalOf(req).accountId);
    sendOk(res, rows.map(serializeKey), 'Keys retrieved.');
  });

  router.post('/keys', ...jsonBody('16kb'), async (req, res) => {
    const data = parseBodyObject(req.body, fieldsOf(createBody));
    await checkKeys(db, principalOf(req).accountId, maxKeys);
    const created = await createAccountKey(db, principalOf(req).accountId, data);
    sendOk(res, { ...serializeKey(created), key: created.key }, 'Key created.', 201);
  });

  router.delete('/keys/:id', async (req, res) => {
    const revoked = await revokeAccountKey(
      db,
      principalOf(req).accountId,
      idParam(req.params.id, 'Key'),
    );
    if (!revoked) throw notFound('Key');
    sendOk(res, {}, 'Key revoked.');
  });

  return router;
}
