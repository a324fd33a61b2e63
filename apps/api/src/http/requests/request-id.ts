import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { continueTrace, parseTraceparent } from '@xt/runtime';

// A printable token (no spaces or control characters) of at most 128 characters (docs/api.md#request-id).
const ACCEPTABLE = /^[\x21-\x7e]{1,128}$/;

export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.id = given && ACCEPTABLE.test(given) ? given : randomUUID();
    // The caller's trace (W3C traceparent) or a new one: its id is on every line about this
    // request, the API's and, through the job, the worker's.
    req.traceparent = continueTrace(req.get('traceparent'));
    const traceId = parseTraceparent(req.traceparent)?.traceId;
    req.log = logger.child({ requestId: req.id, traceId });
    res.setHeader('x-request-id', req.id);
    next();
  };
}
