import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import {
  checkCredentials,
  closeSession,
  csrfTokenFor,
  MAX_PASSWORD_LENGTH,
  openSession,
  type DashboardUser,
  type SessionLifetime,
} from '@xt/accounts';
import { HttpError, validationError } from '../http/errors.ts';
import type { Db } from '@xt/db';
import { bodyObject, jsonBody } from '../http/body.ts';
import { sendOk } from '../http/envelope.ts';
import { checkFields } from '../http/validate.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './session-cookie.ts';
import type { SignInThrottle } from './signin-throttle.ts';

const signInBody = z.object({
  email: z.string().trim().min(1, 'email is required').max(254),
  password: z.string().min(1, 'password is required').max(MAX_PASSWORD_LENGTH),
});

const view = (user: DashboardUser, token: string) => ({
  user: { id: user.id, email: user.email, account: user.accountName },
  csrfToken: csrfTokenFor(token),
});

/**
 * Sign-in, the current session, and sign-out. `GET /session` is behind `requireSession` (mounted
 * by the caller); sign-in is not, and sign-out works with or without a live session.
 */
export function sessionRoutes(
  db: Db,
  lifetime: SessionLifetime,
  throttle: SignInThrottle,
  requireSession: RequestHandler,
  /** PUBLIC_URL's origin: decides the cookie's Secure flag and name behind TLS proxies. */
  publicOrigin?: string,
): Router {
  const router = Router();

  router.post('/session', ...jsonBody('16kb'), async (req, res) => {
    const { data, errors } = checkFields(signInBody, bodyObject(req.body));
    if (!data) throw validationError(errors);
    await throttle.attempt(data.email, req.ip ?? 'unknown');
    const user = await checkCredentials(db, data.email, data.password);
    if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Wrong email or password.');
    await throttle.succeeded(data.email, req.ip ?? 'unknown');
    // A fresh token on every sign-in: a token planted before sign-in is never promoted.
    const { token, expiresAt } = await openSession(db, user.id, lifetime);
    setSessionCookie(req, res, token, expiresAt, publicOrigin);
    req.log.info({ userId: user.id, accountId: user.accountId }, 'dashboard sign-in');
    sendOk(res, view(user, token), 'Signed in.');
  });

  router.get('/session', requireSession, (req, res) => {
    const token = readSessionToken(req);
    if (!req.dashboardUser || !token) throw new Error('route is not behind requireSession');
    sendOk(res, view(req.dashboardUser, token), 'Signed in.');
  });

  router.delete('/session', async (req, res) => {
    const token = readSessionToken(req);
    if (token) await closeSession(db, token);
    clearSessionCookie(req, res, publicOrigin);
    sendOk(res, {}, 'Signed out.');
  });

  return router;
}
