import path from 'node:path';
import { existsSync } from 'node:fs';
import express, { Router, type RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers of every dashboard response (pages and their JSON alike): a strict
 * Content-Security-Policy (own scripts and styles only, nothing inline, no framing), plus
 * X-Frame-Options for older browsers. helmet keeps the header set current.
 */
export const dashboardHeaders: RequestHandler = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
});

/**
 * The built single-page app: hashed assets cached for good, every other path under /dashboard
 * answered with index.html (the client routes), never cached so a deploy shows at once.
 */
export function dashboardPages(assetsDir: string): Router {
  const router = Router();
  const index = path.join(assetsDir, 'index.html');
  router.use(
    '/assets',
    express.static(path.join(assetsDir, 'assets'), { immutable: true, maxAge: '1y', index: false }),
  );
  router.use(express.static(assetsDir, { index: false, maxAge: 0 }));
  router.get('/{*path}', (_req, res) => {
    if (!existsSync(index)) {
      res
        .status(503)
        .type('text/plain')
        .send('The dashboard is not built. Run `npm run build` (or `npm start`, which builds it).');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
