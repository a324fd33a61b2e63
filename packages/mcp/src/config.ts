import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { connectionEnv, isLoopbackHost, type ConnectionEnv } from '@xt/sdk';
import { allowedHostnames } from './hosts.ts';

export interface McpConfig {
  connection: ConnectionEnv;
  http: boolean;
  host: string;
  port: number;
  /** HTTP: what every request's `Authorization: Bearer` must carry. */
  token: string;
  /** Whether `token` was made up at start (loopback only, printed once on stderr). */
  tokenGenerated: boolean;
  /** HTTP: the `Host` header names answered (URL hostname form); any other gets 403. */
  allowedHosts: string[];
  allowFiles: boolean;
  /** The one folder `extract` reads files under (always set over HTTP when files are allowed). */
  filesRoot: string | undefined;
}

export const USAGE = `Usage: xt-mcp [--http [--host 127.0.0.1] [--port 3333] [--allowed-host <name>]...]
              [--allow-files] [--files-root <dir>]

  (no option)            serve MCP over stdio (what desktop MCP clients start)
  --http                 serve MCP over streamable HTTP at http://<host>:<port>/mcp; every
                         request must carry Authorization: Bearer <XT_MCP_TOKEN>
  --token <token>        the bearer token instead of XT_MCP_TOKEN (other users can read a
                         command line: prefer the variable). Required unless --host is
                         loopback; there, without one, a token is made up and printed
  --allowed-host <name>  also answer requests whose Host header is <name> (repeatable; also
                         XT_MCP_ALLOWED_HOSTS, comma-separated); always: loopback names, and
                         the --host address, or this machine's name and addresses on 0.0.0.0/::
  --allow-files          over HTTP, let extract read local files under --files-root
  --files-root <dir>     the folder extract reads files from (over HTTP: default the working
                         folder; over stdio: anywhere unless given). Paths that leave it,
                         through .. or a symbolic link, are refused, and so are hidden
                         files and folders under it (.env, .data) unless it names them

Connection: XT_BASE_URL and XT_API_KEY, or the development key of a local npm start.`;

/** Short enough to type, long enough that guessing over the network is hopeless. */
const MIN_TOKEN_LENGTH = 32;

/** The command line and the environment, checked once at start-up. */
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
      token: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'allow-files': { type: 'boolean' },
      'files-root': { type: 'string' },
    },
  });
  const port = Number(values.port ?? '3333');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a port number, got ${values.port}`);
  }
  const http = values.http === true;
  const host = values.host ?? '127.0.0.1';
  const given = values.token ?? nonEmpty(env.XT_MCP_TOKEN);
  if (http && given === undefined && !isLoopbackHost(host)) {
    throw new Error(
      `--host ${host} is reachable from other machines: set XT_MCP_TOKEN to a secret of at least ` +
        `${MIN_TOKEN_LENGTH} characters (e.g. openssl rand -hex 32) that clients send as ` +
        'Authorization: Bearer <token>',
    );
  }
  if (given !== undefined && given.length < MIN_TOKEN_LENGTH) {
    throw new Error(
      `XT_MCP_TOKEN (or --token) must be at least ${MIN_TOKEN_LENGTH} characters, e.g. openssl rand -hex 32`,
    );
  }
  const allowFiles = !http || values['allow-files'] === true;
  if (values['files-root'] !== undefined && !allowFiles) {
    throw new Error('--files-root names where --allow-files may read: give both');
  }
  const extraHosts = [
    ...(nonEmpty(env.XT_MCP_ALLOWED_HOSTS)?.split(',') ?? []),
    ...(values['allowed-host'] ?? []),
  ]
    .map((h) => h.trim())
    .filter((h) => h !== '');
  return {
    connection: connectionEnv(env),
    http,
    host,
    port,
    token: given ?? randomBytes(32).toString('base64url'),
    tokenGenerated: given === undefined,
    allowedHosts: allowedHostnames(host, extraHosts),
    allowFiles,
    filesRoot: values['files-root'] ?? (http && allowFiles ? '.' : undefined),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}
