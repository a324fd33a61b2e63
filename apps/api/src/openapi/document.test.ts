import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { SOURCE_KINDS } from '@xt/contract';
import { openApiDocument } from './document.ts';
import { createResponseChecker } from '../../test/response-check.ts';
import { MAX_PAGE } from '../http/listing/list-query.ts';

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

const check = createResponseChecker();
const json = new Headers({
  'content-type': 'application/json; charset=utf-8',
  'x-request-id': 'r',
});
const schema = {
  id: '6f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a',
  name: 'Invoice',
  description: null,
  structure: { type: 'object', properties: { total: { type: 'number', minLength: '3' } } },
  createdAt: '2026-11-21T09:30:00.000+00:00',
  updatedAt: '2026-11-21T09:30:00.000+00:00',
};
const answer = (path: string, status: number, body: unknown, method = 'GET', headers = json) =>
  check({ method, path, status, headers, body });

describe('the generated OpenAPI document', () => {
  it('names every kind of source in its summary', () => {
    const { description } = openApiDocument().info;
    const { text, auto, ...files } = SOURCE_KINDS;
    for (const kind of Object.values(files)) expect(description).toContain(kind.noun);
    expect(description).toContain(`typed ${text.recordType}`);
    expect(description).toContain(`type ${auto.recordType}`);
    expect(description).toContain('a webpage (by URL)');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(
      // As served: plain JSON.
      JSON.parse(JSON.stringify(openApiDocument())) as Record<string, unknown>,
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is what generators need: operation ids, one component per shape, bytes, JSON objects', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument())) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
      webhooks: Record<string, Record<string, { operationId?: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    const operations = [...Object.values(doc.paths), ...Object.values(doc.webhooks)].flatMap(
      (item) => Object.entries(item).filter(([method]) => METHODS.includes(method)),
    );
    const ids = operations.map(([, op]) => op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);

    // zod-openapi's input/output split would name a second copy `<Name>Output`.
    const names = Object.keys(doc.components.schemas);
    expect(names.filter((n) => n.endsWith('Output') && names.includes(n.slice(0, -6)))).toEqual([]);
    // A webhook's data is the very record GET /extractions/{id} returns.
    const event = doc.components.schemas.WebhookEvent as { properties: { data: unknown } };
    const get = doc.paths['/extractions/{id}']!.get as unknown as {
      responses: { 200: { content: { 'application/json': { schema: unknown } } } };
    };
    expect(event.properties.data).toEqual({ $ref: '#/components/schemas/Extraction' });
    expect(JSON.stringify(get.responses[200].content['application/json'].schema)).toContain(
      '"#/components/schemas/Extraction"',
    );

    const text = JSON.stringify(doc);
    expect(text).not.toContain('"format":"binary"');
    expect(text).toContain('"contentMediaType":"application/octet-stream"');
    const record = doc.components.schemas.Extraction as {
      properties: { result: { anyOf: unknown[] } };
    };
    expect(record.properties.result.anyOf).toEqual([
      { type: 'object', additionalProperties: {} },
      { type: 'array', items: {} },
      { type: 'null' },
    ]);
  });

  it('states the limits the server enforces', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument())) as Record<string, any>;
    const query = (path: string) =>
      Object.fromEntries(
        (doc.paths[path].get.parameters as { name: string; schema: object }[]).map((p) => [
          p.name,
          p.schema,
        ]),
      );
    expect(query('/schemas')).toMatchObject({
      page: { minimum: 1, maximum: MAX_PAGE },
      limit: { minimum: 1, maximum: 100 },
      search: { maxLength: 255 },
    });
    const webhook = doc.paths['/webhooks'].post.requestBody;
    expect(webhook.content['application/json'].schema.properties.url).toMatchObject({
      maxLength: 2048,
    });
    expect(webhook.description).toMatch(/16kb/);
    const create = doc.paths['/extractions'].post.requestBody;
    const source = create.content['application/json'].schema.properties.source;
    expect(source.minLength).toBe(1);
    expect(source.description).toMatch(/MAX_TEXT_CHARS.*2048 characters.*MAX_UPLOAD_BYTES/);
    expect(create.content['application/json'].schema.properties.instruction.maxLength).toBe(4000);
  });

  it('accepts an answer as documented, with and without /v1', () => {
    const ok = { status: true, message: 'Schema retrieved.', data: schema };
    expect(answer(`/v1/schemas/${schema.id}`, 200, ok)).toEqual([]);
    expect(answer(`/schemas/${schema.id}`, 200, ok)).toEqual([]);
  });

  it('refuses a field the document does not have, a wrong type, and an unknown code', () => {
    const extra = { status: true, message: 'm', data: { ...schema, secret: 'x' } };
    expect(answer(`/v1/schemas/${schema.id}`, 200, extra).join()).toMatch(/additional/);
    const wrong = { status: true, message: 'm', data: { ...schema, createdAt: '2026-11-21' } };
    expect(answer(`/v1/schemas/${schema.id}`, 200, wrong).join()).toMatch(/createdAt/);
    const code = { status: false, message: 'm', code: 'TEAPOT' };
    expect(answer('/v1/schemas', 404, code).join()).toMatch(/code/);
  });

  it('refuses an accepted request body the document would not allow', () => {
    const ok = { status: true, message: 'Schema created.', data: schema };
    const headers = new Headers(json);
    headers.set('location', `/v1/schemas/${schema.id}`);
    const sent = { name: 'Invoice', structure: schema.structure };
    expect(
      check({
        method: 'POST',
        path: '/v1/schemas',
        status: 201,
        headers,
        body: ok,
        requestJson: sent,
      }),
    ).toEqual([]);
    const bad = {
      ...sent,
      structure: { type: 'object', properties: { total: { type: 'money' } } },
    };
    expect(
      check({
        method: 'POST',
        path: '/v1/schemas',
        status: 201,
        headers,
        body: ok,
        requestJson: bad,
      }).join(),
    ).toMatch(/accepted request body/);
  });

  it('refuses an undocumented status or route, and a 503 without Retry-After', () => {
    const body = { status: false, message: 'm', code: 'UNAVAILABLE' };
    expect(answer('/v1/schemas', 418, body).join()).toMatch(/status not documented/);
    expect(answer('/v1/things', 200, body).join()).toMatch(/route not documented/);
    expect(answer('/v1/schemas', 503, body).join()).toMatch(/Retry-After is missing/);
    const withRetry = new Headers(json);
    withRetry.set('retry-after', '2');
    expect(answer('/v1/schemas', 503, body, 'GET', withRetry)).toEqual([]);
    withRetry.set('retry-after', 'soon');
    expect(answer('/v1/schemas', 503, body, 'GET', withRetry).join()).toMatch(/Retry-After: soon/);
  });

  it('documents citations: a boolean in JSON, true/false in forms, and on the completed answer', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument()));
    const content = doc.paths['/extractions'].post.requestBody.content;
    expect(content['application/json'].schema.properties.citations).toMatchObject({
      type: 'boolean',
    });
    for (const type of ['multipart/form-data', 'application/x-www-form-urlencoded'])
      expect(content[type].schema.properties.citations).toMatchObject({ enum: ['true', 'false'] });
    const completed = doc.components.schemas.ExtractionCompleted.properties;
    expect(Object.keys(completed)).toEqual(expect.arrayContaining(['citations', 'warnings']));
    expect(doc.components.schemas.Citation.required).toEqual(
      expect.arrayContaining(['grounded', 'quote', 'page', 'boxes', 'start', 'end', 'confidence']),
    );
  });
});
