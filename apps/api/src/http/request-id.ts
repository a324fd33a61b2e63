import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

// A printable token (no spaces or control characters) of at most 128 characters (docs/api.md#request-id).
const ACCEPTABLE = /^[\x21-\x7e]{1,128}$/;

export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.id = given && ACCEPTABLE.test(given) ? given : randomUUID();
    req.log = logger.child({ requestId: req.id });
    res.setHeader('x-request-id', req.id);
    next();
  };
}
