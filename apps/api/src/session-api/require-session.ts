import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { csrfTokenFor, findSession, type SessionLifetime } from '@xt/accounts';
import type { Db } from '@xt/db';
import { HttpError } from '../http/errors/errors.ts';
import { readSessionToken } from './session-cookie.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Dashboard authentication: only the session cookie counts. An `Authorization` header is
 * ignored, so an API key never opens the dashboard (and the API's `authenticate` only reads
 * that header, so a session never works as an API key). Mutations must also carry the session's
 * CSRF token, which only the dashboard's own pages can read.
 */
export function requireSession(db: Db, lifetime: SessionLifetime): RequestHandler {
  return async (req, _res, next) => {
    const token = readSessionToken(req);
    const session = token ? await findSession(db, token, lifetime) : null;
    if (!token || !session)
      throw new HttpError(401, 'UNAUTHORIZED', 'Sign in to use the dashboard.');
    if (
      !SAFE_METHODS.has(req.method) &&
      !sameToken(req.get(CSRF_HEADER) ?? '', csrfTokenFor(token))
    )
      throw new HttpError(403, 'CSRF', 'Missing or wrong CSRF token; reload the page.');
    // The dashboard acts for the whole account with write rights, like a write key would.
    req.principal = {
      keyId: null,
      userId: session.user.id,
      accountId: session.user.accountId,
      scope: 'write',
    };
    req.dashboardUser = session.user;
    req.log = req.log.child({ accountId: session.user.accountId, userId: session.user.id });
    next();
  };
}
