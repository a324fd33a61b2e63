/**
 * The MCP server (packages/mcp) as an MCP client meets it: a real `xt-mcp` process over stdio
 * and over streamable HTTP, driven by the MCP SDK's client, in front of the real API, a worker
 * process and the model stand-in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect } from 'vitest';
import { REPO_ROOT, waitFor } from '@xt/testkit';
import { textPdf } from '@xt/testkit/fixtures';
import { stackTest } from '../support/stack.ts';

const MAIN = `${REPO_ROOT}/packages/mcp/src/main.ts`;
const TSX = import.meta.resolve('tsx');
// Workspace packages resolve to their sources, as in the tests themselves (no build first).
const NODE_ARGS = ['--conditions=@xt/source', '--import', TSX, MAIN];

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
  test('lists its four tools with JSON Schema inputs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'create_schema',
      'extract',
      'get_extraction',
      'list_schemas',
    ]);
    const extract = tools.find((t) => t.name === 'extract')!;
    expect(extract.inputSchema).toMatchObject({
      type: 'object',
      required: ['schema_id'],
      properties: {
        schema_id: { type: 'string' },
        citations: { type: 'boolean' },
        type: { enum: ['text', 'image', 'pdf', 'webpage'] },
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
      /refused the request \(HTTP 422, VALIDATION_FAILED\)[\s\S]*- schema_id: /,
    );
    const privateUrl = await call(client, 'extract', {
      schema_id: schemaId,
      url: 'http://127.0.0.1/x',
    });
    expect(privateUrl.text).toMatch(/- source: /);
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

describe('xt-mcp over streamable HTTP', () => {
  let server: ChildProcess;
  let url: string;

  test.beforeAll(async () => {
    server = spawn(process.execPath, [...NODE_ARGS, '--http', '--port', '0'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let err = '';
      server.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        const found = /listening on (\S+)/.exec(err);
        if (found) resolve(found[1]!);
      });
      server.once('exit', (code) => reject(new Error(`xt-mcp exited with ${code}: ${err}`)));
    });
  }, 60_000);

  test.afterAll(() => {
    server?.kill('SIGTERM');
  });

  test('serves the same tools to a streamable HTTP client, files only when allowed', async () => {
    const http = new Client({ name: 'xt-http-test', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect((await http.listTools()).tools).toHaveLength(4);
      const schemaId = (await call(http, 'list_schemas', { limit: 1 })).json.data[0].id as string;
      const done = await call(http, 'extract', { schema_id: schemaId, text: 'Total 3' });
      expect(done.json.status).toBe('completed');
      const file = await call(http, 'extract', { schema_id: schemaId, path: 'invoice.pdf' });
      expect(file.text).toContain('does not read local files');
    } finally {
      await http.close();
    }
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    // DNS rebinding: a page on another host name cannot drive the local server.
    // fetch will not send another Host header; node:http will.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: {
          host: 'evil.example',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      });
      req.once('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.once('error', reject);
      req.end('{}');
    });
    expect(rebound).toBe(403);
  });
});
