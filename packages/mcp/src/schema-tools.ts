import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { XtClient } from '@xt/sdk';
import { z } from 'zod';
import { jsonResult } from './errors.ts';
import { uploadableFile } from './files.ts';
import { guarded, type ToolOptions } from './tools.ts';

/**
 * The two ways to a schema without writing one (docs/api.md#suggest-a-schema): drafted from
 * sample files, or converted from a JSON Schema the agent already has. Neither stores a schema:
 * the answer's `structure` is what `create_schema` takes as it is.
 */
export function registerSchemaTools(server: McpServer, client: XtClient, options: ToolOptions) {
  server.registerTool(
    'suggest_schema',
    {
      title: 'Suggest a schema from sample files',
      description:
        'Drafts a schema `structure` from one to five local sample files (`paths`: PDF, image, ' +
        'office document, spreadsheet, email or text) and runs the draft on each, answering ' +
        '{ structure, samples: [{ file, output, citations, fields: { found, missing, share } }] }: ' +
        'which fields each sample really carries. Pass `structure` to create_schema as it is ' +
        '(after removing fields no sample carries). Nothing is stored; the model calls are ' +
        'charged as extractions.',
      inputSchema: {
        paths: z
          .array(z.string())
          .min(1)
          .max(5)
          .describe('one to five local sample files of the kind the schema is for'),
        prompt: z
          .string()
          .max(4000)
          .optional()
          .describe('what the schema is for, in words: guides which fields are drafted'),
        model: z.enum(['gpt-4.1', 'gpt-4.1-mini']).optional(),
      },
    },
    ({ paths, prompt, model }) =>
      guarded(async () => {
        const files = [];
        for (const p of paths) {
          const { file, real } = await uploadableFile(p, options);
          files.push({ path: real, filename: path.basename(file) });
        }
        const suggestion = await client.schemas.suggest({
          files,
          ...(prompt !== undefined ? { prompt } : {}),
          ...(model !== undefined ? { model } : {}),
        });
        return jsonResult(suggestion);
      }),
  );

  server.registerTool(
    'convert_json_schema',
    {
      title: 'Convert a JSON Schema into a schema structure',
      description:
        'Turns a JSON Schema (from Pydantic, zod, another service) into the `structure` ' +
        'create_schema takes, answering { structure, dropped: [{ path, reason }] }: what a ' +
        'structure cannot say ($ref and allOf are folded in; bounds, patterns and unions of ' +
        'different shapes are left out and listed). Free.',
      inputSchema: {
        json_schema: z.record(z.string(), z.unknown()).describe('the JSON Schema, as an object'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ json_schema }) => guarded(async () => jsonResult(await client.schemas.convert(json_schema))),
  );
}
