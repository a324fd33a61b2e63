import type { Request, Response } from 'express';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (never sent on a
 * cross-site request), Secure when the request came over https (directly or, with TRUST_PROXY,
 * through a proxy), and scoped to /dashboard so the API's own routes never even see it.
 */
export const SESSION_COOKIE = 'xt_session';
const PATH = '/dashboard';

export function readSessionToken(req: Request): string | undefined {
  // Session tokens are base64url, so the value needs no decoding; the first one wins.
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE)
      return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

export function setSessionCookie(req: Request, res: Response, token: string, expires: Date): void {
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: PATH,
    expires,
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: PATH,
  });
}
