import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { sameSecret } from './same-secret.ts';

/** True when no token is configured or the request carries it as `Authorization: Bearer`. */
export function bearerAllowed(authorization: string | undefined, token: string | undefined) {
  if (!token) return true;
  const presented = /^Bearer\s+(\S.*)$/i.exec(authorization ?? '')?.[1] ?? '';
  return sameSecret(presented, token);
}

/**
 * Answers a scrape: Prometheus text, or 401 in the service's JSON envelope when METRICS_TOKEN is
 * set and not presented. Plain Node request and response, so Express (the API) and the worker's
 * bare HTTP server share it.
 */
export async function serveMetrics(
  registry: Registry,
  token: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!bearerAllowed(req.headers.authorization, token)) {
    res.statusCode = 401;
    res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(
      JSON.stringify({
        status: false,
        message: 'A valid metrics token is required.',
        code: 'UNAUTHORIZED',
      }),
    );
    return;
  }
  const body = await registry.metrics();
  res.statusCode = 200;
  res.setHeader('Content-Type', registry.contentType);
  res.end(body);
}
