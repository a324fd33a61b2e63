import { createHash } from 'node:crypto';
import path from 'node:path';
import type { XtClient } from '../../client.ts';
import type { CreateExtractionParams } from '../../create-params.ts';
import { ApiError, ExtractionFailedError } from '../../errors.ts';
import type {
  ExtractionPriority,
  Progress as PageProgress,
  PublicModel,
  Schema,
} from '../../types.ts';
import { parse, positiveInt } from '../args.ts';
import { UsageError, type Command } from '../command.ts';
import { looksLikeFile, readSchemaFile, schemaForFile } from '../schema-file.ts';
import { expandInputs, type Input } from './inputs.ts';
import {
  csvColumns,
  readPrevious,
  rowKey,
  RowWriter,
  type Format,
  type ResultRow,
} from './output.ts';
import { runPool } from '../../pool.ts';
import { SOURCE_TYPES } from '../../source-type.ts';
import { Progress } from './progress.ts';

const USAGE = `Usage: xt extract --schema <id | schema.json> [options] <files, URLs or folders…>

  --schema, -s       a schema id, or a schema JSON file (made once: one of the same name and
                     structure is reused)
  --type, -t         ${SOURCE_TYPES.join(' | ')} (default: from each name's extension)
  --citations        ask for citations (where each value was found)
  --out, -o FILE     append results to FILE, skipping inputs it already holds (default: stdout)
  --format, -f       jsonl | csv (default: from --out's extension, else jsonl)
  --concurrency, -c  extractions at once (default 4)
  --model            gpt-4.1 | gpt-4.1-mini
  --instruction      extra guidance for the model
  --no-cache         do every input afresh (by default an earlier answer to the same content,
                     schema structure and options is reused: completed at once, uncharged)
  --cache-max-age S  reuse only answers at most S seconds old (default: the service's, a week)
  --priority         standard | batch (batch: through the provider's batch interface, at its
                     lower price, within the service's batch window, 24 hours by default)`;

const MODELS: PublicModel[] = ['gpt-4.1', 'gpt-4.1-mini'];
const PRIORITIES: ExtractionPriority[] = ['standard', 'batch'];

interface Settings {
  schemaId: string;
  citations: boolean;
  model: PublicModel | undefined;
  instruction: string | undefined;
  /** Reuse of earlier answers (docs/reuse.md); undefined: the service's default, reuse on. */
  cache: CreateExtractionParams['cache'];
  /** `batch` (docs/batch.md); undefined: the service's default, standard. */
  priority: ExtractionPriority | undefined;
}

export const extractCommand: Command = {
  summary: 'extract from many files, URLs or folders at once, resumably, into JSONL or CSV',
  async run(args, ctx) {
    if (args.includes('--help') || args.includes('-h')) {
      ctx.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const { values, positionals } = parse(
      args,
      {
        schema: { type: 'string', short: 's' },
        type: { type: 'string', short: 't' },
        citations: { type: 'boolean' },
        out: { type: 'string', short: 'o' },
        format: { type: 'string', short: 'f' },
        concurrency: { type: 'string', short: 'c' },
        model: { type: 'string' },
        instruction: { type: 'string' },
        'no-cache': { type: 'boolean' },
        'cache-max-age': { type: 'string' },
        priority: { type: 'string' },
      },
      USAGE,
    );
    if (values.schema === undefined) throw new UsageError('--schema is required', USAGE);
    if (positionals.length === 0)
      throw new UsageError('name at least one file, URL or folder', USAGE);
    const type = oneOf(values.type, SOURCE_TYPES, 'type');
    const model = oneOf(values.model, MODELS, 'model');
    const priority = oneOf(values.priority, PRIORITIES, 'priority');
    const format =
      oneOf(values.format, ['jsonl', 'csv'] as Format[], 'format') ??
      (values.out?.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
    const concurrency = positiveInt(values.concurrency, 'concurrency', 4);
    const citations = values.citations === true;
    const cache = cacheSetting(values['no-cache'] === true, values['cache-max-age']);

    const { inputs, skipped } = await expandInputs(positionals, ctx.cwd, type);
    for (const s of skipped)
      ctx.stderr.write(`skipped ${s}: its name is not one of a file kind the service reads\n`);
    const client = await ctx.client();
    const schema = await resolveSchema(client, values.schema, ctx.cwd);
    const settings: Settings = {
      schemaId: schema.id,
      citations,
      model,
      instruction: values.instruction,
      cache,
      priority,
    };

    const columns = csvColumns(schema.structure, citations);
    const outFile = values.out === undefined ? undefined : path.resolve(ctx.cwd, values.out);
    const prior = outFile ? await readPrevious(outFile, format, columns) : undefined;
    const todo = inputs.filter((i) => !prior?.previous.get(rowKey(i.source, i.sha256))?.completed);
    const writer = await RowWriter.open(
      outFile && prior
        ? { file: outFile, empty: prior.empty, cutShort: prior.cutShort }
        : { stdout: ctx.stdout },
      format,
      columns,
    );
    const progress = new Progress(ctx.stderr, {
      total: inputs.length,
      completed: 0,
      failed: 0,
      running: 0,
      skipped: inputs.length - todo.length,
    });
    const { tally } = progress;
    progress.draw();
    try {
      await runPool(todo, concurrency, async (input) => {
        tally.running++;
        progress.draw();
        const attempt = prior?.previous.get(rowKey(input.source, input.sha256))?.failures ?? 0;
        try {
          const row = await extractOne(client, input, settings, attempt, (pages) =>
            progress.pages(input, pages),
          );
          await writer.add(row);
          if (row.status === 'completed') tally.completed++;
          else tally.failed++;
        } finally {
          tally.running--;
          progress.pages(input, undefined);
        }
      });
    } finally {
      progress.finish();
      await writer.close();
    }
    return tally.failed > 0 ? 1 : 0;
  },
};

/** `--no-cache` or `--cache-max-age S`: not both, which would contradict each other. */
function cacheSetting(off: boolean, maxAge: string | undefined): Settings['cache'] {
  if (off && maxAge !== undefined)
    throw new UsageError('--no-cache and --cache-max-age contradict each other', USAGE);
  if (off) return false;
  if (maxAge === undefined) return undefined;
  if (!/^\d+$/.test(maxAge))
    throw new UsageError('--cache-max-age must be a whole number of seconds', USAGE);
  return { maxAge: Number(maxAge) };
}

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  name: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

async function resolveSchema(client: XtClient, value: string, cwd: string): Promise<Schema> {
  if (!looksLikeFile(value)) return client.schemas.get(value);
  // Every run, resumed ones included, uses the one schema with the file's name and structure.
  return (await schemaForFile(client, await readSchemaFile(path.resolve(cwd, value)))).schema;
}

/**
 * The Idempotency-Key of one input: its content's hash with everything else the request
 * carries, so a run killed mid-way and started again gets the extractions it already paid for
 * instead of making new ones. `attempt` counts earlier failures, so a retry is a new request.
 */
export function idempotencyKey(input: Input, settings: Settings, attempt: number): string {
  const parts = [
    input.sha256,
    // The file's name is part of the request too: two files of the same content under two
    // names are two requests, which one key for both would make the service refuse.
    input.source,
    input.type,
    settings.schemaId,
    settings.citations,
    settings.model ?? '',
    settings.instruction ?? '',
    attempt,
    // Only when given, so runs without it keep the keys earlier versions derived.
    ...(settings.cache === undefined ? [] : [settings.cache]),
    ...(settings.priority === undefined ? [] : [settings.priority]),
  ];
  return `xt-${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

async function extractOne(
  client: XtClient,
  input: Input,
  settings: Settings,
  attempt: number,
  onProgress: (progress: PageProgress) => void,
): Promise<ResultRow> {
  const base = { source: input.source, sha256: input.sha256 };
  const params: CreateExtractionParams = {
    schemaId: settings.schemaId,
    type: input.type,
    source: input.path ? { path: input.path } : input.source,
  };
  if (settings.citations) params.citations = true;
  if (settings.model) params.model = settings.model;
  if (settings.instruction) params.instruction = settings.instruction;
  if (settings.cache !== undefined) params.cache = settings.cache;
  if (settings.priority) params.priority = settings.priority;
  try {
    const done = await client.extract(params, {
      idempotencyKey: idempotencyKey(input, settings, attempt),
      onProgress,
    });
    const row: ResultRow = {
      ...base,
      id: done.id,
      status: 'completed',
      output: done.output,
      error: null,
    };
    if (settings.citations) row.citations = done.citations ?? null;
    if (done.warnings) row.warnings = done.warnings;
    if (done.reused) row.reused = done.reused;
    return row;
  } catch (error) {
    if (error instanceof ExtractionFailedError) {
      return {
        ...base,
        id: error.extractionId,
        status: 'failed',
        output: null,
        error: { code: error.failureCode, message: error.message },
      };
    }
    // A refusal of this one input (an unreadable file, a URL the service will not fetch) is its
    // result; anything else (a bad key, the service gone) stops the run.
    if (error instanceof ApiError && [413, 415, 422].includes(error.status)) {
      return {
        ...base,
        id: null,
        status: 'failed',
        output: null,
        error: { code: error.code, message: error.message },
      };
    }
    throw error;
  }
}
