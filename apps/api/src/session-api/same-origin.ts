import type { RequestHandler } from 'express';
import { HttpError } from '../http/errors/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses every mutation that does not come from the dashboard's own origin. SameSite cookies
 * are not enough: another port on the same host is the same *site*. Browsers send `Origin` on
 * every cross-origin and every non-GET fetch/form post, so a missing one is refused too (only
 * non-browser clients omit it, and they have the API with keys).
 */
export function sameOriginOnly(publicOrigin: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    const origin = req.get('origin');
    // Behind a TLS-terminating proxy the request arrives as http: PUBLIC_URL says what the
    // browser's origin is.
    const own = publicOrigin ?? `${req.protocol}://${req.get('host') ?? ''}`;
    if (!origin || origin !== own)
      throw new HttpError(
        403,
        'CROSS_ORIGIN',
        'Cross-origin requests cannot change anything here.',
      );
    next();
  };
}
