import type { Server } from 'node:http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * Streamable HTTP at `/mcp`, stateless: each POST gets a fresh server and transport, so any
 * number of clients (and replicas) share nothing. On a loopback host the SDK's app checks the
 * Host header against DNS rebinding.
 */
export function serveHttp(
  makeServer: () => McpServer,
  host: string,
  port: number,
): Promise<Server> {
  const app = createMcpExpressApp({ host });
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
    const listener = app.listen(port, host, (error?: Error) =>
      error ? reject(error) : resolve(listener),
    );
  });
}
