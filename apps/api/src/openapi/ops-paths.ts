import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ErrorBody } from '../http/envelope/response-schemas.ts';
import { AliveSchema, NotReadySchema, ReadySchema } from '../ops/health.ts';
import { json, rateLimitHeaders, requestIdHeaders, retryAfter } from './common.ts';

/** The queue board counts failed sign-ins per address and says so on every answer. */
const boardHeaders = requestIdHeaders.extend(rateLimitHeaders);

/** Operational routes live outside /v1 and need no API key (docs/api.md#operational-routes). */
const outside = { servers: [{ url: '/' }] };
const html = { 'text/html': { schema: z.string() } };

export const opsPaths: ZodOpenApiPathsObject = {
  '/healthz': {
    ...outside,
    get: {
      tags: ['Operations'],
      operationId: 'getHealth',
      summary: 'The process is alive',
      security: [],
      responses: {
        '200': { description: 'Alive', headers: requestIdHeaders, content: json(AliveSchema) },
      },
    },
  },
  '/readyz': {
    ...outside,
    get: {
      tags: ['Operations'],
      operationId: 'getReadiness',
      summary: 'PostgreSQL and Redis answer, and the process is not shutting down',
      security: [],
      responses: {
        '200': { description: 'Ready', headers: requestIdHeaders, content: json(ReadySchema) },
        '503': {
          description: '`NOT_READY`, with which dependency failed',
          headers: requestIdHeaders.extend({ 'Retry-After': retryAfter }),
          content: json(NotReadySchema),
        },
      },
    },
  },
  '/openapi.json': {
    ...outside,
    get: {
      tags: ['Operations'],
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      security: [],
      responses: {
        '200': {
          description: 'OpenAPI 3.1',
          headers: requestIdHeaders,
          content: json(z.record(z.string(), z.unknown())),
        },
      },
    },
  },
  '/docs': {
    ...outside,
    get: {
      tags: ['Operations'],
      operationId: 'getDocs',
      summary: 'Swagger UI over this document',
      security: [],
      responses: { '200': { description: 'The page', headers: requestIdHeaders, content: html } },
    },
  },
  '/metrics': {
    ...outside,
    get: {
      tags: ['Operations'],
      operationId: 'getMetrics',
      summary: 'Prometheus metrics; needs the METRICS_TOKEN bearer when one is set',
      security: [{ metricsToken: [] }, {}],
      responses: {
        '200': {
          description: 'Prometheus text exposition',
          headers: requestIdHeaders,
          content: { 'text/plain': { schema: z.string() } },
        },
        '401': {
          description: 'Missing or wrong METRICS_TOKEN',
          headers: requestIdHeaders.extend({
            'WWW-Authenticate': z.string().meta({ examples: ['Bearer realm="metrics"'] }),
          }),
          content: json(ErrorBody),
        },
      },
    },
  },
  '/admin/queues': {
    ...outside,
    get: {
      tags: ['Operations'],
      operationId: 'getQueueDashboard',
      summary: 'The queue board (bull-board); only when ADMIN_USER and ADMIN_PASSWORD are set',
      security: [{ adminBasic: [] }],
      responses: {
        '200': { description: 'The board', headers: boardHeaders, content: html },
        '401': {
          description: 'Missing or wrong credentials',
          headers: boardHeaders.extend({
            'WWW-Authenticate': z
              .string()
              .meta({ examples: ['Basic realm="queues", charset="UTF-8"'] }),
          }),
          content: json(ErrorBody),
        },
        '429': {
          description: 'Too many failed sign-ins from this address (`RATE_LIMITED`)',
          headers: boardHeaders.extend({ 'Retry-After': retryAfter }),
          content: json(ErrorBody),
        },
        '404': {
          description: 'Not configured',
          headers: requestIdHeaders,
          content: json(ErrorBody),
        },
      },
    },
  },
};
