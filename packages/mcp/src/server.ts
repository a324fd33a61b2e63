import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { XtClient } from '@xt/sdk';
import { registerSchemaTools } from './schema-tools.ts';
import { registerSplitTool } from './split-tool.ts';
import { registerTools, type ToolOptions } from './tools.ts';

export const SERVER_INFO = { name: 'xt-mcp', version: '0.1.0' };

/** An MCP server whose tools call the extraction service through `client`. */
export function createXtMcpServer(client: XtClient, options: ToolOptions): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Extracts structured JSON from text, webpages, PDFs and images. Find or create a schema ' +
      '(list_schemas, create_schema), then call extract with its id. For a file holding ' +
      'several documents (a scanned mail bundle), call split_bundle with a schema per kind. ' +
      'To make a schema, suggest_schema drafts one from sample files and convert_json_schema ' +
      'turns an existing JSON Schema into one.',
  });
  registerTools(server, client, options);
  registerSplitTool(server, client, options);
  registerSchemaTools(server, client, options);
  return server;
}
