import type { RequestHandler } from 'express';
import { HttpError } from '../errors/errors.ts';

/** A route the API serves, as its metrics label it, and the methods it answers. */
export interface KnownRoute {
  /** The Express-style template (`/extractions/:id`), the label a matched handler's metrics carry. */
  template: string;
  methods: ReadonlySet<string>;
  /** The `Allow` header: the methods, HEAD included wherever GET is. */
  allow: string;
}

const OPERATION_METHODS = ['get', 'put', 'post', 'patch', 'delete'];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The API's routes, read from the OpenAPI document's paths: the document is the route catalogue
 * (the integration tests fail on an answer from a route it lacks, and the generated-client test
 * calls every operation it lists). Resource routes (no `servers` of their own) are matched with
 * and without /v1, the rest as they are; like Express, case-insensitively and with or without a
 * trailing slash.
 */
export function routeTable(paths: Record<string, object>): (path: string) => KnownRoute | null {
  const routes = Object.entries(paths).map(([template, pathItem]) => {
    const item = pathItem as Record<string, unknown>;
    const methods = new Set(
      OPERATION_METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase()),
    );
    if (methods.has('GET')) methods.add('HEAD');
    const body = template
      .split(/\{[^{}]+\}/)
      .map(escape)
      .join('[^/]+');
    const prefix = item.servers === undefined ? '(?:/v1)?' : '';
    return {
      pattern: new RegExp(`^${prefix}${body}/?$`, 'i'),
      route: {
        template: template.replace(/\{([^{}]+)\}/g, ':$1'),
        methods,
        allow: [...methods].sort().join(', '),
      },
    };
  });
  return (path) => routes.find((r) => r.pattern.test(path))?.route ?? null;
}

/**
 * Notes the route a request is aimed at (so answers given before any handler, an
 * authentication 401 say, are labelled with it) and answers a method the route does not have
 * with 405 and `Allow`, before authentication: the routes and their methods are public (the
 * OpenAPI document), and a browser's CORS pre-flight, which carries no credentials, gets the
 * same 405 rather than a 401 (no pre-flight is served; docs/api.md#envelope-and-status-codes).
 */
export function knownRoutes(match: (path: string) => KnownRoute | null): RequestHandler {
  return (req, _res, next) => {
    const route = match(req.path);
    if (!route) {
      next();
      return;
    }
    req.knownRoute = route;
    if (route.methods.has(req.method)) {
      next();
      return;
    }
    const why = req.method === 'OPTIONS' ? ' (no CORS pre-flight is served)' : '';
    next(
      new HttpError(
        405,
        'METHOD_NOT_ALLOWED',
        `${req.method} is not supported here${why}; allowed methods: ${route.allow}.`,
        { headers: { Allow: route.allow } },
      ),
    );
  };
}
