import type { RequestHandler } from 'express';
import type { KeyCache } from '@xt/accounts';
import { HttpError } from '../http/errors/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function unauthorized(message: string, error?: string): HttpError {
  return new HttpError(401, 'UNAUTHORIZED', message, {
    headers: {
      'WWW-Authenticate': error ? `Bearer realm="api", error="${error}"` : 'Bearer realm="api"',
    },
  });
}

/**
 * Bearer authentication (docs/api.md#authentication-and-scopes). Missing or unknown or revoked keys are 401; a read-scoped key on
 * a mutating route is 403. Accounts are never told apart by error: the principal only scopes
 * the queries that follow.
 */
export function authenticate(keys: KeyCache): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) throw unauthorized('Missing credential: send Authorization: Bearer <API key>.');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1])
      throw unauthorized(
        'Malformed Authorization header: expected Bearer <API key>.',
        'invalid_request',
      );
    const principal = await keys.authenticate(match[1]);
    if (!principal) throw unauthorized('Invalid or revoked API key.', 'invalid_token');
    if (principal.scope === 'read' && !SAFE_METHODS.has(req.method))
      throw new HttpError(403, 'FORBIDDEN', 'This API key is read-only; a write key is required.');
    req.principal = principal;
    req.log = req.log.child({ accountId: principal.accountId, keyId: principal.keyId });
    next();
  };
}
