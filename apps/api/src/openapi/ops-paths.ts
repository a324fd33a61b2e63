import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ErrorBody } from '../http/response-schemas.ts';
import { AliveSchema, NotReadySchema, ReadySchema } from '../ops/health.ts';
import { json, retryAfter } from './common.ts';

/** Operational routes live outside /v1 and need no API key (docs/api.md#operational-routes). */
const outside = { servers: [{ url: '/' }] };
const html = { 'text/html': { schema: z.string() } };

export const opsPaths: ZodOpenApiPathsObject = {
  '/healthz': {
    ...outside,
    get: {
      tags: ['Operations'],
      summary: 'The process is alive',
      security: [],
      responses: { '200': { description: 'Alive', content: json(AliveSchema) } },
    },
  },
  '/readyz': {
    ...outside,
    get: {
      tags: ['Operations'],
      summary: 'PostgreSQL and Redis answer, and the process is not shutting down',
      security: [],
      responses: {
        '200': { description: 'Ready', content: json(ReadySchema) },
        '503': {
          description: '`NOT_READY`, with which dependency failed',
          headers: z.object({ 'Retry-After': retryAfter }),
          content: json(NotReadySchema),
        },
      },
    },
  },
  '/openapi.json': {
    ...outside,
    get: {
      tags: ['Operations'],
      summary: 'This document',
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.1', content: json(z.record(z.string(), z.unknown())) },
      },
    },
  },
  '/docs': {
    ...outside,
    get: {
      tags: ['Operations'],
      summary: 'Swagger UI over this document',
      security: [],
      responses: { '200': { description: 'The page', content: html } },
    },
  },
  '/metrics': {
    ...outside,
    get: {
      tags: ['Operations'],
      summary: 'Prometheus metrics; needs the METRICS_TOKEN bearer when one is set',
      security: [{ metricsToken: [] }, {}],
      responses: {
        '200': {
          description: 'Prometheus text exposition',
          content: { 'text/plain': { schema: z.string() } },
        },
        '401': { description: 'Missing or wrong METRICS_TOKEN', content: json(ErrorBody) },
      },
    },
  },
  '/admin/queues': {
    ...outside,
    get: {
      tags: ['Operations'],
      summary: 'The queue dashboard (bull-board); only when ADMIN_USER and ADMIN_PASSWORD are set',
      security: [{ adminBasic: [] }],
      responses: {
        '200': { description: 'The dashboard', content: html },
        '401': { description: 'Missing or wrong credentials', content: json(ErrorBody) },
        '404': { description: 'Not configured', content: json(ErrorBody) },
      },
    },
  },
};
