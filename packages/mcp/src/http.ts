import type { Server } from 'node:http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { requireToken } from './auth.ts';

export interface HttpOptions {
  host: string;
  port: number;
  /** What every request's `Authorization: Bearer` must carry. */
  token: string;
  /** Host header names answered (URL hostname form); anything else is 403, against DNS rebinding. */
  allowedHosts: string[];
}

/**
 * Streamable HTTP at `/mcp`, stateless: each POST gets a fresh server and transport, so any
 * number of clients (and replicas) share nothing. The SDK's app checks the Host header against
 * `allowedHosts` on any bind address (by itself it checks only on loopback ones), then its JSON
 * parser (100 kB) runs, then the token is checked.
 */
export function serveHttp(makeServer: () => McpServer, options: HttpOptions): Promise<Server> {
  const app = createMcpExpressApp({ host: options.host, allowedHosts: options.allowedHosts });
  app.use('/mcp', requireToken(options.token));
  app.post('/mcp', async (req, res) => {
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  app.all('/mcp', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: POST JSON-RPC messages to /mcp.' },
        id: null,
      });
  });
  return new Promise((resolve, reject) => {
    const listener = app.listen(options.port, options.host, (error?: Error) =>
      error ? reject(error) : resolve(listener),
    );
  });
}
