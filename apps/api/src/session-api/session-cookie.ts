import type { Request, Response } from 'express';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (never sent on a
 * cross-site request). Over https (PUBLIC_URL's scheme, else the request's own, directly or
 * through a trusted proxy) it is Secure and named `__Host-xt_session`, which browsers only
 * accept Secure, host-only and for Path=/ (so no other host or path can plant or shadow it);
 * over plain http it is `xt_session`, scoped to /dashboard. The API's own routes never read
 * cookies either way.
 */
export const SESSION_COOKIE = 'xt_session';
const HOST_COOKIE = `__Host-${SESSION_COOKIE}`;

/** How the cookie is set for this request: secure or not, from PUBLIC_URL when it is set. */
export function cookieFor(req: Request, publicOrigin: string | undefined) {
  const secure = publicOrigin ? publicOrigin.startsWith('https:') : req.secure;
  return secure
    ? { name: HOST_COOKIE, options: { httpOnly: true, sameSite: 'strict', secure, path: '/' } }
    : {
        name: SESSION_COOKIE,
        options: { httpOnly: true, sameSite: 'strict', secure, path: '/dashboard' },
      };
}

export function readSessionToken(req: Request): string | undefined {
  // Session tokens are base64url, so the value needs no decoding; the first one wins.
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    const name = eq > 0 ? pair.slice(0, eq).trim() : '';
    if (name === SESSION_COOKIE || name === HOST_COOKIE)
      return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

export function setSessionCookie(
  req: Request,
  res: Response,
  token: string,
  expires: Date,
  publicOrigin: string | undefined,
): void {
  const { name, options } = cookieFor(req, publicOrigin);
  res.cookie(name, token, { ...options, sameSite: 'strict', expires });
}

export function clearSessionCookie(
  req: Request,
  res: Response,
  publicOrigin: string | undefined,
): void {
  const { name, options } = cookieFor(req, publicOrigin);
  res.clearCookie(name, { ...options, sameSite: 'strict' });
}
