import { parseArgs } from 'node:util';
import { connectionEnv, type ConnectionEnv } from '@xt/sdk';

export interface McpConfig {
  connection: ConnectionEnv;
  http: boolean;
  host: string;
  port: number;
  allowFiles: boolean;
}

export const USAGE = `Usage: xt-mcp [--http [--host 127.0.0.1] [--port 3333]] [--allow-files]

  (no option)    serve MCP over stdio (what desktop MCP clients start)
  --http         serve MCP over streamable HTTP at http://<host>:<port>/mcp
  --allow-files  over HTTP, let extract read local files (always allowed over stdio)

Connection: XT_BASE_URL and XT_API_KEY, or the development key of a local npm start.`;

/** The command line and the connection variables, checked once at start-up. */
export function loadMcpConfig(
  argv: string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): McpConfig {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      http: { type: 'boolean' },
      host: { type: 'string' },
      port: { type: 'string' },
      'allow-files': { type: 'boolean' },
    },
  });
  const port = Number(values.port ?? '3333');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a port number, got ${values.port}`);
  }
  const http = values.http === true;
  return {
    connection: connectionEnv(env),
    http,
    host: values.host ?? '127.0.0.1',
    port,
    allowFiles: !http || values['allow-files'] === true,
  };
}
