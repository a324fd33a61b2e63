#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveConnection, XtClient } from '@xt/sdk';
import { loadMcpConfig, USAGE } from './config.ts';
import { serveHttp } from './http.ts';
import { createXtMcpServer } from './server.ts';
import { checkFilesRoot } from './files.ts';

/** How long a stop waits for calls in progress (an extraction being waited for) to answer. */
const STOP_GRACE_MS = 5_000;
/** How often the parent is looked for. */
const ORPHAN_CHECK_MS = 1_000;

// stdout carries the protocol over stdio: everything for people goes to stderr.
// Read before anything else, as the process that started this one: read after the server says
// it listens, the caller could already have gone, and the orphan check would compare against
// the process that adopted this one (a busy machine made that race real in CI).
const parent = process.ppid;

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const config = loadMcpConfig();
  const cwd = process.cwd();
  const filesRoot = config.filesRoot && (await checkFilesRoot(cwd, config.filesRoot));
  const client = new XtClient(await resolveConnection(config.connection, cwd));
  const make = () => createXtMcpServer(client, { cwd, allowFiles: config.allowFiles, filesRoot });
  if (!config.http) {
    await make().connect(new StdioServerTransport());
    return;
  }
  const listener = await serveHttp(make, config);
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const say = (line: string) => process.stderr.write(`xt-mcp: ${line}\n`);
  say(`listening on http://${config.host}:${port}/mcp`);
  say(`answering Host: ${config.allowedHosts.join(', ')} (add names with --allowed-host)`);
  if (filesRoot) say(`extract reads files under ${filesRoot} only`);
  // Loopback only (config refuses other hosts without a token): the operator's own terminal.
  if (config.tokenGenerated) {
    say(`no XT_MCP_TOKEN given; this run's token: ${config.token}`);
    say('clients send it as Authorization: Bearer <token>');
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    listener.close(() => process.exit(0));
    // An idle keep-alive connection would hold the port open as long as its client lives.
    listener.closeIdleConnections();
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // `npx xt-mcp` runs this under npm and `sh -c`: a SIGTERM to npx ends those two and not this
  // process, which went on holding the port. Its parent gone, it stops as on SIGTERM.
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, ORPHAN_CHECK_MS).unref();
}

main().catch((error: unknown) => {
  process.stderr.write(`xt-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
