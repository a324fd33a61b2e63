export { createXtMcpServer, SERVER_INFO } from './server.ts';
export { serveHttp } from './http.ts';
export type { ToolOptions } from './tools.ts';
