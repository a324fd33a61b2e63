/**
 * README.md as a newcomer follows it after `npm ci`, so it cannot drift: every block marked
 * `<!-- readme-test: <kind> -->` (tests/support/readme.ts) runs as written, in the file's order.
 *
 * - `serve`: each line starts a long-running process in the background, in turn (the model
 *   stand-in, then `npm start`); what follows runs once the API and its worker are ready.
 * - `run`: shell lines; all such blocks in one bash session (`set -e`), as typed in one terminal.
 * - `python`: run by python3, with `XT_API_KEY` exported as its comment says, and
 *   `clients/python/src` on the path in place of its `pip install` line; what it prints must
 *   be what the comment on its `print` line says.
 * - `mcp`: an MCP client's configuration; the server it names is started as a client would
 *   start it, in a folder of its own, and asked for its tools and the account's schemas.
 *
 * What differs from a person's terminals, and why: ports 3000 and 4010 become free ones (other
 * tests, or a developer's own `npm start`, may hold them); the commands run in a scratch folder
 * that links every top-level entry of this checkout but `.data`, with `DATA_DIR` inside it, so
 * `.data/…` and the files the commands write stay out of the checkout; LibreOffice's deadline
 * (`CONVERT_TIMEOUT_MS`) is five minutes, since on a machine busy with other tests one start
 * of it can pass the default minute; and the MCP
 * configuration's placeholders, `/path/to/extraction-service` and `sk_live_…`, become this
 * checkout and the printed key. Nothing else is rewritten.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import { REPO_ROOT, waitFor } from '@xt/testkit';
import { readmeBlocks, scratchRoot, type ReadmeBlock } from '../support/readme.ts';

interface Started {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

let root: string;
let port: number;
let standInPort: number;
let blocks: ReadmeBlock[];
let env: NodeJS.ProcessEnv;
const served: Started[] = [];

function rewrite(code: string): string {
  return code
    .replaceAll('localhost:3000', `localhost:${port}`)
    .replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
    .replaceAll('4010', String(standInPort));
}

/** A command in a process group of its own, as a terminal's job; output collected. */
function start(command: string, args: string[], extra: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...env, ...extra },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, output: () => out, exited };
}

const ok = async (url: string) => (await fetch(url)).status === 200;

beforeAll(async () => {
  blocks = await readmeBlocks();
  root = await scratchRoot();
  port = await freePort();
  standInPort = await freePort();
  env = {
    ...process.env,
    DATA_DIR: path.join(root, '.data'),
    PORT: String(port),
    CONVERT_TIMEOUT_MS: '300000',
  };
  // Nothing of the test runner's own set-up leaks in: npm start uses its embedded default.
  for (const name of [
    ...['DATABASE_URL', 'REDIS_URL', 'TEST_DATABASE_URL', 'TEST_REDIS_URL', 'HOST'],
    ...['XT_BASE_URL', 'XT_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'LOG_LEVEL'],
    ...['WORKER_METRICS_PORT', 'WORKER_METRICS_HOST', 'WORKER_PROCESSES'],
  ])
    delete env[name];
  env.LOG_FORMAT = 'json';

  for (const block of blocks.filter((b) => b.kind === 'serve')) {
    for (const line of rewrite(block.code)
      .split('\n')
      .filter((l) => l.trim() !== '')) {
      const process = start('bash', ['-c', line]);
      served.push(process);
      // The stand-in prints once it listens; npm start at once (it is waited for below).
      await waitFor(() => process.output().trim() !== '', 120_000);
    }
  }
  const npmStart = served.at(-1)!;
  await waitFor(() => ok(`http://127.0.0.1:${port}/readyz`), 240_000, 500);
  const worker = await waitFor(
    () =>
      /"url":"(http:\/\/[^"]+)","msg":"worker ops endpoints listening"/.exec(
        npmStart.output(),
      )?.[1],
    60_000,
  );
  await waitFor(() => ok(`${worker}/readyz`), 120_000, 500);
}, 400_000);

afterAll(async () => {
  // Stopped as a person would, with Ctrl-C in each terminal.
  for (const { child, exited } of served.reverse()) {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
    const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
    await exited;
    clearTimeout(kill);
  }
  if (root) await rm(root, { recursive: true, force: true });
}, 120_000);

describe("README's commands, as written", () => {
  it('marks the quick start, the command line, Python and MCP blocks to run', () => {
    expect(blocks.map((b) => `${b.kind}:${b.lang}`)).toEqual([
      'serve:sh',
      'run:sh',
      'run:sh',
      'run:sh',
      'python:python',
      'mcp:json',
    ]);
  });

  it('runs the shell blocks in one terminal: curl with the oracle stand-in, then xt', async () => {
    const script = blocks
      .filter((b) => b.kind === 'run')
      .map((b) => rewrite(b.code))
      .join('\n');
    const run = start('bash', ['-c', `set -eo pipefail\n${script}`]);
    const code = await run.exited;
    const output = run.output();
    expect(code, output).toBe(0);
    // The quick start's answer, as the README states it: the value read from the source.
    expect(output).toContain('"status":"completed","output":{"total":12.5}');
    // The DOCX and the email: both completed with the invoice's number, cited where it is.
    expect(
      output.match(/"status":"completed","output":\{"invoice_number":"INV-2026-1001"/g),
    ).toHaveLength(2);
    // On page 1 of each, with boxes: the laid-out DOCX, and the email's PDF attachment.
    expect(output.split('"quote":"Kestrel Logistics","page":1,"boxes":[[')).toHaveLength(3);
    expect(output).toMatch(
      /"quote":"Kestrel Logistics","page":1,"boxes":\[\[[^\]]+\]\],"start":null,"end":null,"confidence":[\d.]+,"part":"INV-2026-1001.pdf"\}/,
    );
    expect(output).toContain('8 completed, 0 failed, 0 already in the output');
    const csv = (await readFile(path.join(root, 'invoices.csv'), 'utf8')).trimEnd().split('\r\n');
    expect(csv).toHaveLength(9);
    expect(csv.slice(1).every((row) => row.includes(',completed,'))).toBe(true);
    // `xt schemas list`: the quick start's schema and the data sets' invoice schema, which the
    // office files' block made and xt found again by its name and structure.
    expect(output.match(/"name":"Invoice"/g)).toHaveLength(2);
  }, 300_000);

  it('runs the Python block, which prints what its comment says', async () => {
    const [block] = blocks.filter((b) => b.kind === 'python');
    const said = /^print\(.*\)\s+# (\{[^}]*\})/m.exec(block!.code)?.[1];
    expect(said).toBeDefined();
    const key = (await readFile(path.join(root, '.data', 'dev-api-key.txt'), 'utf8')).trim();
    const run = start('python3', ['-c', rewrite(block!.code)], {
      XT_API_KEY: key,
      PYTHONPATH: path.join(REPO_ROOT, 'clients', 'python', 'src'),
    });
    const code = await run.exited;
    expect(code, run.output()).toBe(0);
    expect(run.output().trim()).toBe(said);
  }, 120_000);

  it('starts the MCP server as the configuration says, from a folder of its own', async () => {
    const [block] = blocks.filter((b) => b.kind === 'mcp');
    const key = (await readFile(path.join(root, '.data', 'dev-api-key.txt'), 'utf8')).trim();
    const config = JSON.parse(
      rewrite(block!.code)
        .replaceAll('/path/to/extraction-service', REPO_ROOT)
        .replaceAll('sk_live_…', key),
    ) as { mcpServers: { xt: { command: string; args: string[]; env: Record<string, string> } } };
    const server = config.mcpServers.xt;
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'xt-readme-mcp-'));
    const client = new Client({ name: 'readme-test', version: '1.0.0' });
    try {
      await client.connect(
        new StdioClientTransport({
          command: server.command,
          args: server.args,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...server.env },
          cwd: elsewhere,
          stderr: 'pipe',
        }),
      );
      const { tools } = await client.listTools();
      // Exactly the tools README names.
      const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
      const named = /gives MCP clients the\s+tools ([^]*?), over stdio/.exec(readme)?.[1] ?? '';
      const names = [...named.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).sort();
      expect(names).toContain('extract');
      expect(tools.map((t) => t.name).sort()).toEqual(names);
      const listed = (await client.callTool({ name: 'list_schemas', arguments: {} })) as {
        content: { text: string }[];
      };
      expect(listed.content[0]!.text).toContain('"name": "Invoice"');
    } finally {
      await client.close();
      await rm(elsewhere, { recursive: true, force: true });
    }
  }, 120_000);
});
