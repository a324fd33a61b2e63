/**
 * The MCP server (packages/mcp) as an MCP client meets it: a real `xt-mcp` process over stdio
 * and over streamable HTTP, driven by the MCP SDK's client, in front of the real API, a worker
 * process and the model stand-in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect } from 'vitest';
import { XtClient } from '@xt/sdk';
import { REPO_ROOT, TS_NODE_ARGS, waitFor } from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { BUNDLE_DOCUMENTS, bundlePdf } from '../support/bundle.ts';
import { stackTest } from '../support/stack.ts';

const MAIN = `${REPO_ROOT}/packages/mcp/src/main.ts`;
// Workspace packages resolve to their sources, as in the tests themselves (no build first).
const NODE_ARGS = [...TS_NODE_ARGS, MAIN];

const test = stackTest({ openApi: false });

let dir: string;
let client: Client;
let env: Record<string, string>;

interface ToolText {
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function call(c: Client, name: string, args: Record<string, unknown>) {
  const result = (await c.callTool({ name, arguments: args })) as ToolText;
  const text = result.content[0]!.text;
  return {
    isError: result.isError === true,
    text,
    json: result.isError ? undefined : JSON.parse(text),
  };
}

test.beforeAll(async ({ api }) => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-mcp-test-'));
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    XT_BASE_URL: api.url,
    XT_API_KEY: api.keys.write,
  };
  client = new Client({ name: 'xt-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: NODE_ARGS,
      cwd: dir,
      env,
      stderr: 'pipe',
    }),
  );
}, 120_000);

test.afterAll(async () => {
  await client?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const invoice = {
  type: 'object',
  properties: { total: { type: 'number' }, vendor: { type: 'string' } },
};

describe('xt-mcp over stdio', () => {
  test('lists its seven tools with JSON Schema inputs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'convert_json_schema',
      'create_schema',
      'extract',
      'get_extraction',
      'list_schemas',
      'split_bundle',
      'suggest_schema',
    ]);
    expect(tools.find((t) => t.name === 'split_bundle')!.inputSchema).toMatchObject({
      required: ['classes'],
      properties: {
        classes: { type: 'array', minItems: 1, maxItems: 20 },
        type: { enum: ['pdf', 'image', 'document', 'auto'] },
      },
    });
    const extract = tools.find((t) => t.name === 'extract')!;
    expect(extract.inputSchema).toMatchObject({
      type: 'object',
      required: ['schema_id'],
      properties: {
        schema_id: { type: 'string' },
        citations: { type: 'boolean' },
        // The service's kinds, in its registry's order (docs/sources.md).
        type: {
          enum: [
            'text',
            'image',
            'pdf',
            'webpage',
            'document',
            'spreadsheet',
            'email',
            'markdown',
            'auto',
          ],
        },
      },
    });
  });

  test('creates and lists schemas, extracts from text, a file and reads the extraction back', async ({
    model,
  }) => {
    const schema = await call(client, 'create_schema', { name: 'MCP invoice', structure: invoice });
    expect(schema.isError).toBe(false);
    expect(schema.json).toMatchObject({ name: 'MCP invoice', structure: invoice });
    const listed = await call(client, 'list_schemas', { search: 'mcp' });
    expect(listed.json.data.map((s: { id: string }) => s.id)).toEqual([schema.json.id]);

    model.behave({ output: { total: 12.5, vendor: 'ACME' } });
    const fromText = await call(client, 'extract', {
      schema_id: schema.json.id,
      text: 'ACME invoice. Total 12.50',
    });
    expect(fromText.json).toMatchObject({
      status: 'completed',
      output: { total: 12.5, vendor: 'ACME' },
    });

    await writeFile(path.join(dir, 'invoice.pdf'), await textPdf(['ACME', 'Total 99']));
    const fromFile = await call(client, 'extract', {
      schema_id: schema.json.id,
      path: 'invoice.pdf',
      citations: true,
    });
    expect(fromFile.isError).toBe(false);
    expect(fromFile.json.status).toBe('completed');
    const record = await call(client, 'get_extraction', { id: fromFile.json.id });
    expect(record.json).toMatchObject({ id: fromFile.json.id, source: { type: 'pdf' } });
    expect(record.json.source.file.name).toBe('invoice.pdf');
    // Asked with citations: the record carries the key (null until the worker grounds values).
    expect(record.json).toHaveProperty('citations');
  });

  test('reuses an earlier answer when asked to, and does the work afresh with cache: false', async ({
    model,
  }) => {
    const schemaId = (await call(client, 'list_schemas', {})).json.data[0].id as string;
    const text = `MCP reuse ${Date.now()}. Total 41`;
    const before = model.requests.length;
    const first = await call(client, 'extract', { schema_id: schemaId, text });
    expect(model.requests).toHaveLength(before + 1);
    // The test service reuses nothing by default (CACHE_MAX_AGE_SECONDS=0): ask for it.
    const again = await call(client, 'extract', { schema_id: schemaId, text, cache_max_age: 600 });
    expect(again.json).toMatchObject({
      totalTokens: 0,
      output: first.json.output,
      reused: { extractionId: first.json.id },
    });
    expect(model.requests).toHaveLength(before + 1);
    const fresh = await call(client, 'extract', { schema_id: schemaId, text, cache: false });
    expect(fresh.json).not.toHaveProperty('reused');
    expect(model.requests).toHaveLength(before + 2);
    const both = await call(client, 'extract', {
      schema_id: schemaId,
      text,
      cache: false,
      cache_max_age: 5,
    });
    expect(both).toMatchObject({ isError: true, text: expect.stringContaining('cache_max_age') });
  });

  test('returns the id of an extraction still running after timeout_seconds, to read later', async ({
    model,
  }) => {
    const schemaId = (await call(client, 'list_schemas', {})).json.data[0].id as string;
    model.behave({ delayMs: 2500, output: { total: 8, vendor: 'Slow Ltd' } });
    const pending = await call(client, 'extract', {
      schema_id: schemaId,
      text: 'Total 8',
      timeout_seconds: 1,
    });
    expect(pending.isError).toBe(false);
    expect(pending.json).toMatchObject({ status: expect.stringMatching(/^(pending|processing)$/) });
    expect(pending.json.next).toContain('get_extraction');
    const done = await waitFor(async () => {
      const record = await call(client, 'get_extraction', { id: pending.json.id });
      return record.json.status === 'completed' ? record.json : undefined;
    });
    expect(done.result).toEqual({ total: 8, vendor: 'Slow Ltd' });
  });

  test("splits a bundle from a file and answers each document's extraction", async () => {
    const schemaId = (await call(client, 'list_schemas', {})).json.data[0].id as string;
    await writeFile(path.join(dir, 'bundle.pdf'), await bundlePdf());
    const classes = [
      { name: 'invoice', description: 'A bill asking for payment', schema_id: schemaId },
      { name: 'contract' },
    ];
    const split = await call(client, 'split_bundle', { path: 'bundle.pdf', classes });
    expect(split.isError, split.text).toBe(false);
    expect(split.json).toMatchObject({ id: expect.any(String), status: 'completed' });
    const documents = split.json.documents as {
      class: string;
      pages: unknown;
      extractionId: string | null;
      extraction: { status: string; output: unknown } | null;
    }[];
    expect(documents.map(({ class: c, pages }) => ({ class: c, pages }))).toEqual(BUNDLE_DOCUMENTS);
    expect(documents.map((d) => d.extraction?.status ?? null)).toEqual([
      null,
      'completed',
      null,
      'completed',
    ]);
    const child = await call(client, 'get_extraction', { id: documents[1]!.extractionId });
    expect(child.json).toMatchObject({
      parentId: split.json.id,
      result: documents[1]!.extraction!.output,
    });

    const neither = await call(client, 'split_bundle', { classes });
    expect(neither.text).toBe('Give exactly one of url or path (got none).');
    const reserved = await call(client, 'split_bundle', {
      path: 'bundle.pdf',
      classes: [{ name: 'other' }],
    });
    expect(reserved.isError).toBe(true);
    expect(reserved.text).toMatch(
      /HTTP 422, VALIDATION_FAILED[\s\S]*\n- split\.classes\[0\]\.name/,
    );
  });

  test('drafts a schema from sample files and converts a JSON Schema, each create_schema taking it as is', async () => {
    await writeFile(
      path.join(dir, 'sample-1.txt'),
      'Invoice number: INV-501\nVendor name: Harbour Freight\nTotal: 310.25\n',
    );
    await writeFile(
      path.join(dir, 'sample-2.txt'),
      'Invoice number: INV-502\nVendor name: Osprey Mills\nTotal: 99.75\n',
    );
    const suggested = await call(client, 'suggest_schema', {
      paths: ['sample-1.txt', 'sample-2.txt'],
      prompt: 'supplier invoices',
    });
    expect(suggested.isError, suggested.text).toBe(false);
    expect(Object.keys(suggested.json.structure.properties)).toEqual(
      expect.arrayContaining(['invoice_number', 'vendor_name', 'total']),
    );
    expect(suggested.json.samples).toHaveLength(2);
    for (const sample of suggested.json.samples) expect(sample.fields.missing).toEqual([]);
    const created = await call(client, 'create_schema', {
      name: 'Suggested invoice',
      structure: suggested.json.structure,
    });
    expect(created.isError, created.text).toBe(false);

    const converted = await call(client, 'convert_json_schema', {
      json_schema: {
        type: 'object',
        properties: { total: { type: 'number', minimum: 0 }, vendor: { type: 'string' } },
        required: ['total'],
      },
    });
    expect(converted.isError, converted.text).toBe(false);
    expect(converted.json.structure.properties.total).toMatchObject({ type: 'number' });
    expect(converted.json.dropped).toEqual([
      { path: '/properties/total/minimum', reason: expect.any(String) },
    ]);
    expect(
      (
        await call(client, 'create_schema', {
          name: 'Converted',
          structure: converted.json.structure,
        })
      ).isError,
    ).toBe(false);

    const none = await call(client, 'suggest_schema', { paths: ['missing.pdf'] });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/^path: no such file/);
  });

  test('answers mistakes with errors that say what to change', async ({ model }) => {
    const schemaId = (await call(client, 'list_schemas', {})).json.data[0].id as string;
    const none = await call(client, 'extract', { schema_id: schemaId });
    expect(none).toMatchObject({
      isError: true,
      text: 'Give exactly one of text, url or path (got none).',
    });
    const two = await call(client, 'extract', {
      schema_id: schemaId,
      text: 'a',
      url: 'https://x.example',
    });
    expect(two.text).toContain('got text, url');
    const missing = await call(client, 'extract', { schema_id: schemaId, path: 'nope.pdf' });
    expect(missing.text).toMatch(/^path: no such file: .*nope\.pdf$/);
    const refused = await call(client, 'extract', { schema_id: 'not-a-schema', text: 'Total 1' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /refused the request \(HTTP 422, VALIDATION_FAILED\)[\s\S]*\n- schema_id must be /,
    );
    const privateUrl = await call(client, 'extract', {
      schema_id: schemaId,
      url: 'http://127.0.0.1/x',
    });
    // Named once: the service's message starts with its field already.
    expect(privateUrl.text).toMatch(/\n- source /);
    expect(privateUrl.text).not.toMatch(/source: source/);
    const notFound = await call(client, 'get_extraction', {
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(notFound.text).toContain('HTTP 404, NOT_FOUND');
    model.behave({ refuse: 'no' });
    const failed = await call(client, 'extract', { schema_id: schemaId, text: 'Total 2' });
    expect(failed.text).toMatch(/^Extraction [0-9a-f-]{36} failed \(MODEL_REFUSED\)/);
    // The input schema itself is enforced before the tool runs.
    const badType = await call(client, 'extract', { schema_id: schemaId, text: 'x', type: 'docx' });
    expect(badType.isError).toBe(true);
    expect(badType.text).toContain('type');
  });
});

/** The bearer token the HTTP servers below are started with. */
const TOKEN = 'test-token-0123456789abcdef0123456789abcdef';

/**
 * Starts `xt-mcp` with `args` in `cwd`: its URL (a wildcard bind address read as 127.0.0.1)
 * once it listens, or a rejection carrying its exit code and stderr if it stops first.
 */
async function startXtMcp(
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
): Promise<{ server: ChildProcess; url: string }> {
  const server = spawn(process.execPath, [...NODE_ARGS, ...args], {
    cwd,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    server.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const found = /listening on (\S+)/.exec(err);
      if (found) resolve(found[1]!.replace('//0.0.0.0:', '//127.0.0.1:'));
    });
    server.once('exit', (code) => reject(new ExitError(code, err)));
  });
  return { server, url };
}

class ExitError extends Error {
  constructor(
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`xt-mcp exited with ${code}: ${stderr}`);
  }
}

/** One POST as curl sends it: any Host header, no initialize first. */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
    });
    req.once('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

function connectHttp(url: string, token = TOKEN): Promise<Client> {
  const http = new Client({ name: 'xt-http-test', version: '1.0.0' });
  return http
    .connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    )
    .then(() => http);
}

describe('xt-mcp over streamable HTTP', () => {
  let server: ChildProcess;
  let url: string;

  test.beforeAll(async () => {
    ({ server, url } = await startXtMcp(['--http', '--port', '0'], dir, { XT_MCP_TOKEN: TOKEN }));
  }, 60_000);

  test.afterAll(() => {
    server?.kill('SIGTERM');
  });

  test('serves the same tools to a streamable HTTP client, files only when allowed', async () => {
    const http = await connectHttp(url);
    try {
      expect((await http.listTools()).tools).toHaveLength(7);
      const schemaId = (await call(http, 'list_schemas', { limit: 1 })).json.data[0].id as string;
      const done = await call(http, 'extract', { schema_id: schemaId, text: 'Total 3' });
      expect(done.json.status).toBe('completed');
      const file = await call(http, 'extract', { schema_id: schemaId, path: 'invoice.pdf' });
      expect(file.text).toContain('does not read local files');
      const bundle = await call(http, 'split_bundle', {
        path: 'bundle.pdf',
        classes: [{ name: 'invoice', schema_id: schemaId }],
      });
      expect(bundle).toMatchObject({
        isError: true,
        text: expect.stringContaining('does not read local files'),
      });
    } finally {
      await http.close();
    }
    const auth = { authorization: `Bearer ${TOKEN}` };
    const get = await fetch(url, { headers: auth });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    // DNS rebinding: a page on another host name cannot drive the local server.
    // fetch will not send another Host header; node:http will.
    const rebound = await rawPost(url, { host: 'evil.example', ...auth }, {});
    expect(rebound.status).toBe(403);
  });

  test('on loopback too, answers nothing without the bearer token', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const none = await rawPost(url, {}, list);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    expect((await rawPost(url, { authorization: 'Bearer nope' }, list)).status).toBe(401);
    expect((await fetch(url)).status).toBe(401);
  });
});

describe('xt-mcp over HTTP on every interface', () => {
  test('refuses to start without a token', async () => {
    const started = startXtMcp(
      ['--http', '--host', '0.0.0.0', '--port', '0', '--allow-files'],
      dir,
    );
    const outcome = await started.then(
      ({ server }) => {
        server.kill('SIGTERM');
        return 'listening';
      },
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(ExitError);
    expect((outcome as ExitError).code).toBe(1);
    expect((outcome as ExitError).stderr).toMatch(
      /^xt-mcp: --host 0\.0\.0\.0 is reachable from other machines: set XT_MCP_TOKEN/,
    );
  }, 60_000);

  describe('with a token and --allow-files', () => {
    let server: ChildProcess;
    let url: string;
    let schemaId: string;
    const auth = { authorization: `Bearer ${TOKEN}` };
    const extractCall = (p: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'extract', arguments: { schema_id: schemaId, path: p } },
    });

    test.beforeAll(async () => {
      const root = path.join(dir, 'shared');
      await mkdir(root, { recursive: true });
      await writeFile(path.join(dir, 'outside-secret.txt'), 'TOP SECRET');
      await writeFile(path.join(root, 'inside.txt'), 'ACME invoice. Total 4');
      await symlink('../outside-secret.txt', path.join(root, 'link.txt'));
      ({ server, url } = await startXtMcp(
        ['--http', '--host', '0.0.0.0', '--port', '0', '--allow-files'],
        root,
        { XT_MCP_TOKEN: TOKEN },
      ));
      schemaId = (await call(client, 'list_schemas', {})).json.data[0].id as string;
    }, 60_000);

    test.afterAll(() => {
      server?.kill('SIGTERM');
    });

    test('refuses another Host name, and calls without the token', async () => {
      // What one curl did before: a foreign Host, no initialize, a path up and out.
      const rebound = await rawPost(
        url,
        { host: 'attacker.example', ...auth },
        extractCall('../outside-secret.txt'),
      );
      expect(rebound.status).toBe(403);
      expect((await rawPost(url, {}, extractCall('inside.txt'))).status).toBe(401);
      const wrong = { authorization: `Bearer ${TOKEN.replace(/.$/, 'x')}` };
      expect((await rawPost(url, wrong, extractCall('inside.txt'))).status).toBe(401);
      // The machine's own names still pass.
      const own = await rawPost(url, auth, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(own.status).toBe(200);
    });

    test('refuses any path outside its root (.., absolute, a link) and uploads nothing from there', async ({
      api,
      model,
    }) => {
      // Straight to tools/call, as curl would, and through a client that initialised.
      const raw = await rawPost(url, auth, extractCall('../outside-secret.txt'));
      expect(raw.status).toBe(200);
      const http = await connectHttp(url);
      try {
        for (const p of [
          '../outside-secret.txt',
          path.join(dir, 'outside-secret.txt'),
          'link.txt',
        ]) {
          const refused = await call(http, 'extract', { schema_id: schemaId, path: p });
          expect(refused.isError, p).toBe(true);
          expect(refused.text).toMatch(
            /^path: .* is outside .*shared, the only folder this server reads files from/,
          );
          // A bundle's file is held to the same root.
          const bundle = await call(http, 'split_bundle', { path: p, classes: [{ name: 'a' }] });
          expect(bundle.text, p).toBe(refused.text);
          // So are a schema suggestion's samples.
          const samples = await call(http, 'suggest_schema', { paths: ['inside.txt', p] });
          expect(samples.text, p).toBe(refused.text);
        }
        model.behave({ output: { total: 4, vendor: 'ACME' } });
        const inside = await call(http, 'extract', { schema_id: schemaId, path: 'inside.txt' });
        expect(inside.isError).toBe(false);
        expect(inside.json.status).toBe('completed');
      } finally {
        await http.close();
      }
      const xt = new XtClient({ baseUrl: api.url, apiKey: api.keys.write });
      const uploaded = (await xt.extractions.list({ limit: 100 })).data.flatMap((e) =>
        e.input.file ? [e.input.file.name] : [],
      );
      // invoice.pdf, bundle.pdf and the samples are the stdio tests' uploads; over HTTP only
      // the file inside the root went.
      const overStdio = ['invoice.pdf', 'bundle.pdf', 'sample-1.txt', 'sample-2.txt'];
      expect(uploaded.filter((name) => !overStdio.includes(name))).toEqual(['inside.txt']);
      expect(JSON.stringify(model.requests)).not.toContain('TOP SECRET');
    });
  });
});
