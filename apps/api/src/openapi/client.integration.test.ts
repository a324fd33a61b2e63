/**
 * A client generated from the served OpenAPI document, the way client developers make one
 * (openapi-typescript for the types, openapi-fetch for the calls), compiles under strict `tsc`
 * and works against the real API, worker and model stand-in: every documented operation is
 * called, every answer matches the document, and every header the API sends is declared.
 */
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import type * as TS from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '../../test/start-api.ts';
import { openApiDocument } from './document.ts';
import { createResponseChecker } from '../../test/response-check.ts';

const folder = fileURLToPath(new URL('./client-check/', import.meta.url));
const generated = `${folder}schema.gen.ts`;
const fromHere = createRequire(import.meta.url);
// openapi-typescript builds its output with its own copy of TypeScript; a node made with
// another copy could print wrongly.
const ts = createRequire(fromHere.resolve('openapi-typescript'))('typescript') as typeof TS;
const tsc = createRequire(new URL('../../../../package.json', import.meta.url)).resolve(
  'typescript/bin/tsc',
);

// Headers of HTTP itself (framing, caching, dates) and Swagger UI's security headers; every
// other header an answer carries must be in the document.
const HTTP_HEADERS = new Set([
  'connection',
  'content-length',
  'content-type',
  'date',
  'etag',
  'keep-alive',
  'transfer-encoding',
  'vary',
  'cache-control',
  'last-modified',
  'accept-ranges',
]);

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi({
    ADMIN_USER: 'ops',
    ADMIN_PASSWORD: 'client-check-password',
    WEBHOOK_ALLOWLIST: '127.0.0.1',
    EXTRACTION_WAIT_SECONDS: '20',
  });
  worker = await startTestWorker(api, model.url);
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
  await rm(generated, { force: true });
});

interface Seen {
  method: string;
  path: string;
  status: number;
  headers: Headers;
}

it('generates a client that compiles and uses every route of the real API', async () => {
  const served = (await (await fetch(`${api.url}/openapi.json`)).json()) as OpenAPI3;
  const blob = ts.factory.createTypeReferenceNode('Blob');
  const ast = await openapiTS(served, {
    // The recipe openapi-typescript documents for bytes: a Blob, which FormData takes.
    transform: (schema) =>
      (schema as { contentMediaType?: string }).contentMediaType ? blob : undefined,
  });
  await writeFile(generated, astToString(ast));

  const checked = await promisify(execFile)(
    process.execPath,
    [tsc, '-p', `${folder}tsconfig.json`],
    { encoding: 'utf8' },
  ).catch((err: { stdout?: string; stderr?: string }) => ({
    stdout: `${err.stdout ?? ''}${err.stderr ?? ''}`,
    failed: true,
  }));
  expect('failed' in checked ? checked.stdout : '').toBe('');

  const check = createResponseChecker();
  const seen: Seen[] = [];
  const problems: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const url = new URL(request.url);
    const json = (response.headers.get('content-type') ?? '').includes('json');
    const body: unknown = json ? await response.clone().json() : undefined;
    const path = `${url.pathname}${url.search}`;
    seen.push({ method: request.method, path, status: response.status, headers: response.headers });
    problems.push(
      ...check({
        method: request.method,
        path,
        status: response.status,
        headers: response.headers,
        body,
      }),
    );
    return response;
  };

  const program = (await import(pathToFileURL(`${folder}program.ts`).href)) as {
    useEveryRoute(target: unknown): Promise<Record<string, unknown>>;
  };
  const read = await program.useEveryRoute({
    baseUrl: api.url,
    apiKey: api.keys.write,
    admin: { user: 'ops', password: 'client-check-password' },
    webhookUrl: 'http://127.0.0.1:9/hooks',
    fetch: recording,
  });

  expect(problems).toEqual([]);
  expect(read).toMatchObject({
    schemaTotal: 1,
    renamed: 'Invoice v2',
    total: expect.any(Number),
    listedTotal: expect.any(Number),
    resultTotal: expect.any(Number),
    uploadedStatus: expect.stringMatching(/^(pending|processing|completed)$/),
    suggestedFields: ['invoice_number', 'total_due'],
    convertedFields: ['total'],
    // The upload may have completed (and been queued) by then too.
    queued: expect.any(Number),
    reviewStatus: 'approved',
    expected: { total: 12.5 },
    file: 'Total due: 7.25 EUR',
    secretChanged: true,
    deliveries: 0,
    defaultModel: 'gpt-4.1',
    health: true,
    ready: true,
    documentHasPaths: true,
    pages: [true, true, true],
  });

  // Every operation of the document was called, and succeeded.
  const doc = openApiDocument() as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
  };
  const operations = Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'put', 'post', 'patch', 'delete'].includes(m))
      .map((method) => ({ template, method, pattern: templatePattern(template) })),
  );
  const called = (op: (typeof operations)[number]) =>
    seen.filter(
      (s) => s.method.toLowerCase() === op.method && op.pattern.test(s.path.split('?')[0]!),
    );
  expect(
    operations.filter((op) => called(op).length === 0).map((op) => `${op.method} ${op.template}`),
  ).toEqual([]);
  expect(
    seen.filter((s) => s.status >= 300).map((s) => `${s.method} ${s.path} ${s.status}`),
  ).toEqual([]);

  // Every header sent is declared on the answer it came with.
  const undeclared = operations.flatMap((op) =>
    called(op).flatMap((s) => {
      const declared = Object.keys(
        (op.pattern && doc.paths[op.template]![op.method]!.responses[String(s.status)]?.headers) ??
          {},
      ).map((h) => h.toLowerCase());
      return [...s.headers.keys()]
        .filter((h) => !HTTP_HEADERS.has(h) && !declared.includes(h))
        .map((h) => `${s.method} ${op.template} ${s.status}: ${h}`);
    }),
  );
  expect([...new Set(undeclared)]).toEqual([]);
});

/** `/schemas/{id}` → matches `/v1/schemas/<id>`; operational routes live outside /v1. */
function templatePattern(template: string): RegExp {
  const body = template.replace(/\{[^{}]+\}/g, '[^/]+').replaceAll('.', '\\.');
  return new RegExp(`^(/v1)?${body}$`);
}
