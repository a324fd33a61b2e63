import type { Request } from 'express';

/**
 * The label a request's metrics carry: the route template it matched (`/extractions/:id`),
 * never its path, so ids never become label values and series stay bounded.
 *
 * The template is the route's own path inside its router. /v1 and the unversioned alias (and
 * the dashboard's copy of the resource routes) run the same handlers and share it, and so does
 * an error answered by the app's error handler, by which time Express has already dropped the
 * router's mount prefix. An answer given before any handler (an authentication 401 or 403, a
 * 429, a 405) is labelled with the route its path names (`knownRoutes`); a response from other
 * middleware with no route (a static file) by its mount path plus `/*`; every mount path here is
 * literal and lower-case, so that is bounded too. Express matches mount paths regardless of case
 * and `req.baseUrl` is the path as sent (`/DASHBOARD`), so it is lower-cased: case variants of a
 * path must not each open a series. Anything else (a 404) is `unmatched`.
 */
export function routeLabel(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return path;
  if (req.knownRoute) return req.knownRoute.template;
  if (req.baseUrl) return `${req.baseUrl.toLowerCase()}/*`;
  return 'unmatched';
}
