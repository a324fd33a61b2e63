import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  SPLIT_TYPES,
  splitTypeFor,
  type CreateExtractionParams,
  type Extraction,
  type SplitDocumentRecord,
  type SplitSourceType,
  type XtClient,
} from '@xt/sdk';
import { z } from 'zod';
import { jsonResult, ToolInputError } from './errors.ts';
import { uploadableFile } from './files.ts';
import { DEFAULT_WAIT_SECONDS, guarded, type ToolOptions } from './tools.ts';

const splitClass = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .describe('the kind of document: letters, digits, _, - or spaces; not "other"'),
  description: z
    .string()
    .max(1000)
    .optional()
    .describe('what such a document is, in words (helps the classification)'),
  schema_id: z
    .string()
    .optional()
    .describe('the schema each document of this kind is extracted with; none: only classified'),
});

/**
 * `split_bundle`: one call that cuts a bundle into documents and answers each document's
 * extraction, waiting as `extract` does (docs/split.md). A bundle completes only once every
 * document's extraction is final, so when it completed in time every answer is in.
 */
export function registerSplitTool(server: McpServer, client: XtClient, options: ToolOptions) {
  server.registerTool(
    'split_bundle',
    {
      title: 'Split a bundle into documents',
      description:
        'Cuts a file holding several documents (a scanned mail bundle: invoices, delivery ' +
        'notes, contracts…) into its documents by kind, from a `url` or a local file `path` ' +
        '(PDF, image, Word/PowerPoint/OpenDocument), and extracts each document with its ' +
        'kind\'s schema. Pages of no kind become documents of class "other" unless `other` is ' +
        'false. Waits up to `timeout_seconds` and returns { id, status: "completed", documents: ' +
        '[{ class, pages: { from, to }, confidence, extractionId, extraction: { status, output, ' +
        'error } | null }] } in page order (extraction null for a kind without a schema and for ' +
        '"other"); if it is still running then, returns its id and status: call get_extraction ' +
        'with that id later (its result.documents name each extraction id).',
      inputSchema: {
        classes: z
          .array(splitClass)
          .min(1)
          .max(20)
          .describe('the kinds of document the bundle may hold, names unique'),
        url: z.string().optional().describe('an http(s) URL of the bundle file'),
        path: z.string().optional().describe('a local file: PDF, image or office document'),
        other: z
          .boolean()
          .optional()
          .describe('false: no "other" documents for pages of no kind (default true)'),
        type: z
          .enum(SPLIT_TYPES)
          .optional()
          .describe('the file kind; default: from the name, else recognised by its content'),
        citations: z
          .boolean()
          .optional()
          .describe('also say where each value was found (pages are the bundle’s)'),
        model: z.enum(['gpt-4.1', 'gpt-4.1-mini']).optional(),
        timeout_seconds: z
          .number()
          .int()
          .min(1)
          .max(300)
          .optional()
          .describe('how long to wait for every document (50, under the 60 s most clients allow)'),
      },
    },
    (args) =>
      guarded(async () => {
        const params = await bundleParams(args, options);
        const created = await client.extractions.create(params, {
          waitSeconds: args.timeout_seconds ?? DEFAULT_WAIT_SECONDS,
        });
        const { id, status } = created.extraction;
        if (status !== 'completed') {
          return jsonResult({
            id,
            status,
            documents: null,
            next: `Still ${status}: call get_extraction with this id later; its result.documents name each document's extraction.`,
          });
        }
        const { documents } = await client.extractions.documents(id);
        return jsonResult({ id, status, documents: documents.map(forAgent) });
      }),
  );
}

interface BundleArgs {
  classes: { name: string; description?: string | undefined; schema_id?: string | undefined }[];
  url?: string | undefined;
  path?: string | undefined;
  other?: boolean | undefined;
  type?: SplitSourceType | undefined;
  citations?: boolean | undefined;
  model?: 'gpt-4.1' | 'gpt-4.1-mini' | undefined;
}

async function bundleParams(
  args: BundleArgs,
  options: ToolOptions,
): Promise<CreateExtractionParams> {
  const given = (['url', 'path'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1)
    throw new ToolInputError(
      `Give exactly one of url or path (got ${given.length ? given.join(', ') : 'none'}).`,
    );
  // zod's optional keys arrive as `undefined`; the service wants them absent.
  const classes = args.classes.map((c) => ({
    name: c.name,
    ...(c.description !== undefined ? { description: c.description } : {}),
    ...(c.schema_id !== undefined ? { schema_id: c.schema_id } : {}),
  }));
  const base = {
    split: { classes, ...(args.other !== undefined ? { other: args.other } : {}) },
    ...(args.citations ? { citations: true } : {}),
    ...(args.model !== undefined ? { model: args.model } : {}),
  };
  if (args.url !== undefined) {
    if (!URL.canParse(args.url)) throw new ToolInputError(`url: not a URL: ${args.url}`);
    return { ...base, type: args.type ?? splitTypeFor(args.url, true), source: args.url };
  }
  const { file, real } = await uploadableFile(args.path!, options);
  return {
    ...base,
    type: args.type ?? splitTypeFor(file, false),
    source: { path: real, filename: path.basename(file) },
  };
}

/** A document as an agent needs it: the extraction's answer, not its whole record. */
function forAgent({ extraction, ...document }: SplitDocumentRecord) {
  return { ...document, extraction: extraction && answer(extraction) };
}

function answer(record: Extraction) {
  return {
    status: record.status,
    output: record.result,
    error: record.error,
    ...(record.citations ? { citations: record.citations } : {}),
    ...(record.warnings ? { warnings: record.warnings } : {}),
  };
}
