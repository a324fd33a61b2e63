import type { RequestHandler } from 'express';

/**
 * The API serves no CORS pre-flight, so OPTIONS is not a method of any route: answer 405 with
 * the envelope and the route's `Allow` header (docs/input-normalisation.md). Express's router
 * otherwise answers OPTIONS itself with a text/plain list of methods; that answer is recognised
 * (its body is exactly its `Allow` header) and replaced here, so the methods stay the router's.
 */
export const optionsAsEnvelope: RequestHandler = (req, res, next) => {
  if (req.method !== 'OPTIONS') {
    next();
    return;
  }
  const end = res.end.bind(res) as (chunk?: unknown) => typeof res;
  res.end = ((chunk?: unknown) => {
    const allow = res.getHeader('Allow');
    if (typeof allow === 'string' && res.statusCode === 200 && chunk === allow) {
      const body = JSON.stringify({
        status: false,
        code: 'METHOD_NOT_ALLOWED',
        message: `OPTIONS is not supported here; allowed methods: ${allow}.`,
      });
      res.statusCode = 405;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(body));
      return end(body);
    }
    return end(chunk);
  }) as typeof res.end;
  next();
};
