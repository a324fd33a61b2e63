import type { Logger } from 'pino';
import type { DashboardUser, Principal } from '@xt/accounts';
import type { KnownRoute } from './known-routes.ts';

declare module 'express-serve-static-core' {
  interface Locals {
    /** PUBLIC_URL's origin, when set: list links are built on it (../listing/page-links.ts). */
    publicOrigin?: string | undefined;
  }
  interface Request {
    /** When the request arrived (performance.now()), for answers promised within a time. */
    receivedAt: number;
    /** The request id (docs/api.md#request-id): the caller's x-request-id when acceptable, else a fresh UUID. */
    id: string;
    /** This request's W3C traceparent: the caller's trace id, this API's span (docs/logging.md). */
    traceparent: string;
    log: Logger;
    /** Set by the auth middleware on every /v1 route. */
    principal?: Principal;
    /** Set by the dashboard's session middleware. */
    dashboardUser?: DashboardUser;
    /** The API route the path names, whatever the method (set before authentication). */
    knownRoute?: KnownRoute;
  }
}

export {};
