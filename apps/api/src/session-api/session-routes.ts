import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import {
  changePassword,
  checkCredentials,
  closeSession,
  closeUserSessions,
  csrfTokenFor,
  MAX_PASSWORD_LENGTH,
  openSession,
  passwordProblem,
  type DashboardUser,
  type SessionLifetime,
} from '@xt/accounts';
import { HttpError, validationError } from '../http/errors/errors.ts';
import type { Db } from '@xt/db';
import { jsonBody, parseBodyObject } from '../http/input/body.ts';
import { sendOk } from '../http/envelope/envelope.ts';
import { fieldsOf } from '../http/input/validate.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './session-cookie.ts';
import type { SignInThrottle } from './signin-throttle.ts';

const signInBody = z.object({
  email: z.string().trim().min(1, 'email is required').max(254),
  password: z.string().min(1, 'password is required').max(MAX_PASSWORD_LENGTH),
});

const passwordBody = z.object({
  currentPassword: z
    .string()
    .min(1, 'currentPassword is required')
    .max(MAX_PASSWORD_LENGTH, 'currentPassword is not this user’s password'),
  newPassword: z.string().superRefine((value, ctx) => {
    const problem = passwordProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `newPassword ${problem}` });
  }),
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
    const data = parseBodyObject(req.body, fieldsOf(signInBody));
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

  /**
   * A new password, given the current one. Guesses of the current password count against the
   * same bounds as sign-in attempts, and every other session of the user ends with the change:
   * whoever knew the old password is signed out.
   */
  router.put('/password', requireSession, ...jsonBody('16kb'), async (req, res) => {
    const user = req.dashboardUser;
    const token = readSessionToken(req);
    if (!user || !token) throw new Error('route is not behind requireSession');
    const data = parseBodyObject(req.body, fieldsOf(passwordBody));
    const address = req.ip ?? 'unknown';
    await throttle.attempt(user.email, address);
    if (!(await changePassword(db, user.id, data.currentPassword, data.newPassword)))
      throw validationError([
        { field: 'currentPassword', message: 'currentPassword is not this user’s password' },
      ]);
    await throttle.succeeded(user.email, address);
    const ended = await closeUserSessions(db, user.id, token);
    req.log.info({ userId: user.id, endedSessions: ended }, 'dashboard password changed');
    sendOk(res, { endedSessions: ended }, 'Password changed; your other sessions were ended.');
  });

  /** Sign out everywhere: every session of the user ends, this one included. */
  router.delete('/sessions', requireSession, async (req, res) => {
    const user = req.dashboardUser;
    if (!user) throw new Error('route is not behind requireSession');
    const ended = await closeUserSessions(db, user.id);
    clearSessionCookie(req, res, publicOrigin);
    req.log.info({ userId: user.id, endedSessions: ended }, 'dashboard signed out everywhere');
    sendOk(res, { endedSessions: ended }, 'Signed out everywhere.');
  });

  router.delete('/session', async (req, res) => {
    const token = readSessionToken(req);
    if (token) await closeSession(db, token);
    clearSessionCookie(req, res, publicOrigin);
    sendOk(res, {}, 'Signed out.');
  });

  return router;
}
