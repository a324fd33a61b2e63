import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  SOURCE_TYPES,
  sourceTypeFor,
  type CreateExtractionParams,
  type SourceType,
  type XtClient,
} from '@xt/sdk';
import { z } from 'zod';
import { errorResult, jsonResult, ToolInputError } from './errors.ts';
import { uploadableFile } from './files.ts';

export interface ToolOptions {
  /** Where relative file paths start. */
  cwd: string;
  /** Whether `extract` may read local files (stdio: yes; HTTP: only when asked for). */
  allowFiles: boolean;
  /** When set, the one folder `extract` reads files under (relative paths start there). */
  filesRoot?: string | undefined;
}

/** Below the 60 s request timeout MCP clients commonly use, so the agent gets an answer. */
export const DEFAULT_WAIT_SECONDS = 50;

/** Runs a tool body and turns any failure into an error result the agent can act on. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return errorResult(error);
  }
}

export function registerTools(server: McpServer, client: XtClient, options: ToolOptions): void {
  server.registerTool(
    'list_schemas',
    {
      title: 'List schemas',
      description:
        'Lists the extraction schemas of this account, newest first (a page of records and its meta).',
      inputSchema: {
        search: z.string().optional().describe('case-insensitive part of the schema name'),
        page: z.number().int().min(1).optional().describe('page number, from 1'),
        limit: z.number().int().min(1).max(100).optional().describe('records per page (10)'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) => guarded(async () => jsonResult(await client.schemas.list(args))),
  );

  server.registerTool(
    'create_schema',
    {
      title: 'Create a schema',
      description:
        'Creates a schema: the shape of the JSON an extraction returns. `structure` is an object ' +
        '{ "type": "object", "properties": { "<field>": { "type": "string" | "number" | ' +
        '"integer" | "boolean" | "object" | "array", "description"?, "required"?, "enum"?, ' +
        '"properties"? (objects), "items"? (arrays) } } } or { "type": "array", "items": … }.',
      inputSchema: {
        name: z.string().min(1).describe('a name for the schema'),
        description: z.string().optional(),
        structure: z
          .record(z.string(), z.unknown())
          .describe('the root field definition, of type object (with properties) or array'),
      },
    },
    ({ name, description, structure }) =>
      guarded(async () =>
        jsonResult(
          await client.schemas.create({
            name,
            structure: structure as unknown as Parameters<
              XtClient['schemas']['create']
            >[0]['structure'],
            ...(description !== undefined ? { description } : {}),
          }),
        ),
      ),
  );

  server.registerTool(
    'extract',
    {
      title: 'Extract structured data',
      description:
        'Extracts JSON shaped by a schema from one source: `text`, a `url` (a webpage or a file), ' +
        'or a local file `path` (PDF, image, Word/Excel/PowerPoint/OpenDocument, email, text; ' +
        'recognised by its content). Waits up to ' +
        '`timeout_seconds` and returns { id, status: "completed", output, totalTokens } (and ' +
        'citations when asked for); if it is still running then, returns its id and status: ' +
        'call get_extraction with that id later. An earlier answer to the same content, schema ' +
        'structure and options is reused at once, uncharged (`reused` names it) unless `cache` ' +
        'is false.',
      inputSchema: {
        schema_id: z.string().describe('the id of a schema (list_schemas, create_schema)'),
        text: z.string().optional().describe('the source as plain text'),
        url: z.string().optional().describe('an http(s) URL of a webpage or a file'),
        path: z
          .string()
          .optional()
          .describe('a local file: PDF, image, office document, spreadsheet, email or text'),
        type: z
          .enum(SOURCE_TYPES)
          .optional()
          .describe(
            'the source type; default: text for text, else from the name (webpage for URLs)',
          ),
        citations: z
          .boolean()
          .optional()
          .describe('also say where each value was found in the source'),
        instruction: z.string().max(4000).optional().describe('extra guidance for the model'),
        cache: z
          .boolean()
          .optional()
          .describe('false: do the work afresh instead of reusing an earlier answer'),
        cache_max_age: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('reuse only an earlier answer at most this many seconds old'),
        model: z.enum(['gpt-4.1', 'gpt-4.1-mini']).optional(),
        priority: z
          .enum(['standard', 'batch'])
          .optional()
          .describe(
            'batch: cheaper, through the provider’s batch interface, but may take hours; ' +
              'poll it with get_extraction',
          ),
        timeout_seconds: z
          .number()
          .int()
          .min(1)
          .max(300)
          .optional()
          .describe(
            'how long to wait for the result (50, under the 60 s most MCP clients allow a call)',
          ),
      },
    },
    (args) =>
      guarded(async () => {
        const params = await extractionParams(args, options);
        // The service holds the request while the extraction runs (Prefer: wait=N); a failure
        // throws ExtractionFailedError, an answer in time is the outcome itself.
        const created = await client.extractions.create(params, {
          waitSeconds: args.timeout_seconds ?? DEFAULT_WAIT_SECONDS,
        });
        if (created.extraction.status === 'completed') return jsonResult(created.extraction);
        return jsonResult({
          id: created.extraction.id,
          status: created.extraction.status,
          output: null,
          next: `Still ${created.extraction.status}: call get_extraction with this id later.`,
        });
      }),
  );

  server.registerTool(
    'get_extraction',
    {
      title: 'Get an extraction',
      description:
        'Reads one extraction by id: its status, source, result (the output), error, and ' +
        'citations and warnings when present.',
      inputSchema: { id: z.string().describe('the extraction id') },
      annotations: { readOnlyHint: true },
    },
    ({ id }) => guarded(async () => jsonResult(await client.extractions.get(id))),
  );
}

interface ExtractArgs {
  schema_id: string;
  text?: string | undefined;
  url?: string | undefined;
  path?: string | undefined;
  type?: SourceType | undefined;
  citations?: boolean | undefined;
  instruction?: string | undefined;
  model?: 'gpt-4.1' | 'gpt-4.1-mini' | undefined;
  cache?: boolean | undefined;
  cache_max_age?: number | undefined;
  priority?: 'standard' | 'batch' | undefined;
}

async function extractionParams(
  args: ExtractArgs,
  options: ToolOptions,
): Promise<CreateExtractionParams> {
  const given = (['text', 'url', 'path'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw new ToolInputError(
      `Give exactly one of text, url or path (got ${given.length ? given.join(', ') : 'none'}).`,
    );
  }
  if (args.cache === false && args.cache_max_age !== undefined)
    throw new ToolInputError('cache_max_age has no meaning with cache: false.');
  const cache: CreateExtractionParams['cache'] =
    args.cache === false
      ? false
      : args.cache_max_age !== undefined
        ? { maxAge: args.cache_max_age }
        : undefined;
  const base = {
    schemaId: args.schema_id,
    ...(cache !== undefined ? { cache } : {}),
    ...(args.citations ? { citations: true } : {}),
    ...(args.instruction !== undefined ? { instruction: args.instruction } : {}),
    ...(args.model !== undefined ? { model: args.model } : {}),
    ...(args.priority !== undefined ? { priority: args.priority } : {}),
  };
  if (args.text !== undefined) return { ...base, type: args.type ?? 'text', source: args.text };
  if (args.url !== undefined) {
    if (!URL.canParse(args.url)) throw new ToolInputError(`url: not a URL: ${args.url}`);
    return { ...base, type: args.type ?? sourceTypeFor(args.url, true)!, source: args.url };
  }
  const { file, real } = await uploadableFile(args.path!, options);
  // A name that says nothing: the service recognises the file by its content.
  const type = args.type ?? sourceTypeFor(file, false) ?? 'auto';
  return { ...base, type, source: { path: real, filename: path.basename(file) } };
}
