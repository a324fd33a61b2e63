/**
 * Checks an answer of the API against the OpenAPI document: the route and status must be
 * documented, the body must match the documented schema and the documented required headers
 * must be there. The integration tests run every answer they receive through it, so the code
 * and the document cannot drift apart unnoticed. Ajv's 2020-12 dialect is the one OpenAPI 3.1
 * schemas are written in.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ErrorBody } from '../src/http/envelope/response-schemas.ts';
import { openApiDocument } from '../src/openapi/document.ts';

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export interface CheckedResponse {
  method: string;
  /** The request path, with or without a query. */
  path: string;
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
  /** The JSON body the request sent, if it sent one. */
  requestJson?: unknown;
}

interface Response {
  headers?: Record<string, { required?: boolean; schema?: unknown }>;
  content?: Record<string, unknown>;
}
interface Operation {
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, Response>;
}
type PathItem = Record<string, unknown> & { servers?: unknown };

// Served by other routers with their own rules (the dashboard, bull-board's own pages, UI assets).
const UNDOCUMENTED_PREFIXES = ['/dashboard', '/admin/queues/', '/docs/'];
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');

export function createResponseChecker(): (res: CheckedResponse) => string[] {
  const doc = openApiDocument() as unknown as { paths: Record<string, PathItem> };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  const validator = (...segments: string[]) => {
    const ref = `openapi#/${pointer(...segments)}`;
    let fn = compiled.get(ref);
    if (!fn) {
      fn = ajv.compile({ $ref: ref });
      compiled.set(ref, fn);
    }
    return fn;
  };
  const routes = Object.entries(doc.paths).map(([template, item]) => ({
    template,
    item,
    // Resource routes answer under /v1 and without it; operational routes only outside it.
    versioned: item.servers === undefined,
    pattern: new RegExp(`^${template.replace(/\{[^{}]+\}/g, '[^/]+')}$`, 'i'),
  }));

  const checkBody = (body: unknown, fn: ValidateFunction, where: string): string[] =>
    fn(body)
      ? []
      : [
          `${where}: body does not match the document: ${ajv.errorsText(fn.errors, { separator: '; ' })}\n${JSON.stringify(body).slice(0, 2000)}`,
        ];
  const errorBody = (body: unknown, where: string) =>
    ErrorBody.safeParse(body).success
      ? []
      : [`${where}: not the error envelope: ${JSON.stringify(body)}`];

  return (res) => {
    const method = res.method.toLowerCase();
    // Express routes are not strict: `/schemas/` is `/schemas`.
    const rawPath = (res.path.split('?')[0] ?? '/').replace(/(.)\/$/, '$1');
    // Express routes are case-insensitive too.
    const unversioned = /^\/v1\//i.test(rawPath) ? rawPath.slice(3) : null;
    const where = `${res.method} ${res.path} → ${res.status}`;
    // A HEAD answer has no body to look at; an error one is only its status.
    const errorAnswer = () => (method === 'head' ? [] : errorBody(res.body, where));
    const route = routes.find((r) =>
      unversioned !== null && r.versioned ? r.pattern.test(unversioned) : r.pattern.test(rawPath),
    );
    if (!route) {
      if (UNDOCUMENTED_PREFIXES.some((p) => rawPath.startsWith(p))) return [];
      return res.status === 404 ? errorAnswer() : [`${where}: route not documented`];
    }
    // HEAD is answered by the GET handler without a body (Express does this for every route).
    const documentedMethod = method === 'head' ? 'get' : method;
    const operation = METHODS.includes(documentedMethod)
      ? (route.item[documentedMethod] as Operation | undefined)
      : undefined;
    // A method the route does not have: the router's own 404/405 envelope.
    if (!operation) return res.status >= 400 ? errorAnswer() : [`${where}: method not documented`];
    // A JSON body the API accepted must be one the document allows: a document stricter
    // than the code is drift too.
    const accepted =
      res.status < 300 &&
      res.requestJson !== undefined &&
      operation.requestBody?.content['application/json'] !== undefined
        ? validator(
            'paths',
            route.template,
            documentedMethod,
            'requestBody',
            'content',
            'application/json',
            'schema',
          )
        : undefined;
    const requestProblems =
      accepted && !accepted(res.requestJson)
        ? [
            `${where}: the accepted request body does not match the document: ${ajv.errorsText(accepted.errors)}`,
          ]
        : [];
    const statusKey = [String(res.status), `${String(res.status)[0]}XX`, 'default'].find(
      (k) => k in operation.responses,
    );
    if (!statusKey)
      return [...requestProblems, `${where}: status not documented for ${route.template}`];
    const documented = operation.responses[statusKey]!;
    const problems: string[] = [...requestProblems];
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = res.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${where}: documented header ${name} is missing`);
        continue;
      }
      const fn = validator(
        'paths',
        route.template,
        documentedMethod,
        'responses',
        statusKey,
        'headers',
        name,
        'schema',
      );
      const shown = value;
      if (!fn(value))
        problems.push(
          `${where}: header ${name}: ${shown} does not match the document: ${ajv.errorsText(fn.errors)}`,
        );
    }
    if (!documented.content || method === 'head') return problems;
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!(type in documented.content))
      return [...problems, `${where}: content type ${type} not documented`];
    if (type !== 'application/json') return problems;
    const fn = validator(
      'paths',
      route.template,
      documentedMethod,
      'responses',
      statusKey,
      'content',
      type,
      'schema',
    );
    return [...problems, ...checkBody(res.body, fn, where)];
  };
}
