import type { RequestHandler } from 'express';
import type { HttpMetrics } from '../ops/metrics.ts';

/** One log line and one metric sample per request, written when the response is finished. */
export function accessLog(metrics: HttpMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The matched route pattern keeps metric cardinality bounded (no ids in labels).
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      metrics.observe(req.method, route, res.statusCode, seconds);
      req.log.info(
        {
          method: req.method,
          url: req.originalUrl,
          status: res.statusCode,
          ms: Math.round(seconds * 1000),
        },
        'request',
      );
    });
    next();
  };
}
