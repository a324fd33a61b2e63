import type { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathItemObject } from 'zod-openapi';
import { EmptyData, pageOf } from '../http/envelope/response-schemas.ts';
import { BODY_ERRORS, errors, idPath, json, listQuery, ok, pageHeaders } from './common.ts';

interface BodyOperation {
  summary: string;
  body: z.ZodType;
}

export interface CrudResource {
  /** Singular, as operation ids spell it (`Schema`: createSchema, listSchemas, …); plus `s`, the tag. */
  noun: string;
  /** The record every route answers with (list: a page of them). */
  record: z.ZodType;
  /** The request body's size limit, told on every route that takes one. */
  bodySize: string;
  create: BodyOperation & {
    /** Headers the create route reads (an Idempotency-Key). */
    requestHeaders?: z.ZodObject;
    /** What the 201 answers when it is not `record` (a webhook endpoint with its secret). */
    created?: z.ZodType;
    /** The 201's headers: Location and the rest. */
    headers: z.ZodObject;
  };
  /** `ok` names a page of them (`A page of schemas`). */
  list: { summary: string; ok: string };
  /** `ok` names one (`The schema`). */
  get: { summary: string; ok: string };
  /** PUT, for a resource replaced whole. */
  replace?: BodyOperation;
  update: BodyOperation;
  delete: { summary: string };
}

/**
 * The five routes (and a PUT where there is one) of a resource kept by id, which schemas and
 * webhook endpoints share in shape: the collection's path (create, list) and the item's (get,
 * replace, update, delete), for the caller to place in the document.
 */
export function crudPaths(resource: CrudResource): {
  collection: ZodOpenApiPathItemObject;
  item: ZodOpenApiPathItemObject;
} {
  const { noun, record, bodySize } = resource;
  const tags = [`${noun}s`];
  const change = (verb: string, { summary, body }: BodyOperation): ZodOpenApiOperationObject => ({
    tags,
    operationId: `${verb}${noun}`,
    summary,
    requestParams: { path: idPath },
    requestBody: { required: true, description: bodySize, content: json(body) },
    responses: { '200': ok('Updated', record), ...errors(...BODY_ERRORS) },
  });
  const { create } = resource;
  return {
    collection: {
      post: {
        tags,
        operationId: `create${noun}`,
        summary: create.summary,
        ...(create.requestHeaders && { requestParams: { header: create.requestHeaders } }),
        requestBody: { required: true, description: bodySize, content: json(create.body) },
        responses: {
          '201': ok('Created', create.created ?? record, create.headers),
          ...errors(...BODY_ERRORS),
        },
      },
      get: {
        tags,
        operationId: `list${noun}s`,
        summary: resource.list.summary,
        requestParams: { query: listQuery },
        responses: {
          '200': ok(resource.list.ok, pageOf(record), pageHeaders),
          ...errors(422),
        },
      },
    },
    item: {
      get: {
        tags,
        operationId: `get${noun}`,
        summary: resource.get.summary,
        requestParams: { path: idPath },
        responses: { '200': ok(resource.get.ok, record), ...errors() },
      },
      ...(resource.replace && { put: change('replace', resource.replace) }),
      patch: change('update', resource.update),
      delete: {
        tags,
        operationId: `delete${noun}`,
        summary: resource.delete.summary,
        requestParams: { path: idPath },
        responses: { '200': ok('Deleted', EmptyData), ...errors() },
      },
    },
  };
}
