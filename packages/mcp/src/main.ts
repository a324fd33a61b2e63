#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveConnection, XtClient } from '@xt/sdk';
import { loadMcpConfig, USAGE } from './config.ts';
import { serveHttp } from './http.ts';
import { createXtMcpServer } from './server.ts';

// stdout carries the protocol over stdio: everything for people goes to stderr.
async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const config = loadMcpConfig();
  const cwd = process.cwd();
  const client = new XtClient(await resolveConnection(config.connection, cwd));
  const make = () => createXtMcpServer(client, { cwd, allowFiles: config.allowFiles });
  if (!config.http) {
    await make().connect(new StdioServerTransport());
    return;
  }
  const listener = await serveHttp(make, config.host, config.port);
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stderr.write(`xt-mcp: listening on http://${config.host}:${port}/mcp\n`);
  const stop = () => listener.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`xt-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
