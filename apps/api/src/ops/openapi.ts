import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { openApiDocument } from '../openapi/document.ts';

const require = createRequire(import.meta.url);

/**
 * `/openapi.json` (generated from the zod schemas, see ../openapi/document.ts) and a Swagger UI
 * at `/docs`, served from the package (no CDN: works offline).
 */
export function docsRoutes(): Router {
  const router = Router();
  // Built when the app is assembled: a schema the generator cannot render fails start-up, not a request.
  const document = openApiDocument();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  const uiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/docs', (_req, res) => {
    res.type('html').send(`<!doctype html>
<html><head><meta charset="utf-8"><title>Extraction API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('js').send("window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui' });");
  });
  router.use('/docs/assets', express.static(uiDir, { index: false }));
  return router;
}
