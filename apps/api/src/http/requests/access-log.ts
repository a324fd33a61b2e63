import type { RequestHandler } from 'express';
import type { HttpMetrics } from '../../ops/metrics.ts';
import { routeLabel } from './route-label.ts';

/** One log line and one metric sample per request, written when the response is finished. */
export function accessLog(metrics: HttpMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observe(req.method, routeLabel(req), res.statusCode, seconds);
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
