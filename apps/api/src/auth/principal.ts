import type { Request } from 'express';
import type { Principal } from '@xt/accounts';

/** Handlers behind `authenticate` always have a principal; this keeps the types honest. */
export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Error('route is not behind authenticate()');
  return req.principal;
}
