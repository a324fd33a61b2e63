import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { XtClient } from '../client.ts';
import { SPLIT_TYPES, type SplitSourceType } from '../source-type.ts';
import type { SplitDocumentRecord, SplitOutcome, SplitParams } from '../split.ts';
import type { SplitClass } from '../bundle-types.ts';
import type { Progress } from '../types.ts';
import { parse, printJson, wantsHelp } from './args.ts';
import { UsageError, type Command } from './command.ts';
import { looksLikeFile, readSchemaFile, schemaForFile } from './schema-file.ts';

const USAGE = `Usage: xt split <file or URL> --class NAME[=SCHEMA] [--class …] [options]

Cuts a bundle (a PDF holding an invoice, a delivery note, a contract…) into its documents and
extracts each with its class's schema; prints one line per document, in page order.

  --class, -k NAME[=SCHEMA]  a kind of document the bundle may hold (1 to 20); SCHEMA is a
                             schema id or a schema JSON file (made once, as xt extract does).
                             Without one, documents of the class are classified, not extracted
  --describe NAME=TEXT       what a document of class NAME is, in words, for the classification
  --no-other                 no documents of class "other" for pages of no class
  --type, -t                 ${SPLIT_TYPES.join(' | ')} (default: from the name, else auto)
  --citations                ask for citations in each document's extraction
  --model NAME               the model (xt models lists them)
  --json                     print the bundle's record and each document's record as JSON`;

/**
 * `xt split`: the SDK's `split()` from the command line. Exit code 1 when a document's
 * extraction failed, as `xt extract` does for an input, so a script notices.
 */
export const splitCommand: Command = {
  summary: 'cut a bundle into its documents and extract each with its class’s schema',
  async run(args, ctx) {
    if (wantsHelp(args)) {
      ctx.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const { values, positionals } = parse(
      args,
      {
        class: { type: 'string', short: 'k', multiple: true },
        describe: { type: 'string', multiple: true },
        'no-other': { type: 'boolean' },
        type: { type: 'string', short: 't' },
        citations: { type: 'boolean' },
        model: { type: 'string' },
        json: { type: 'boolean' },
      },
      USAGE,
    );
    if (positionals.length !== 1) throw new UsageError('name one file or URL', USAGE);
    const given = parseClasses(values.class ?? [], values.describe ?? []);
    const type = values.type;
    if (type !== undefined && !(SPLIT_TYPES as readonly string[]).includes(type))
      throw new UsageError(`--type must be one of ${SPLIT_TYPES.join(', ')}`, USAGE);
    const source = await sourceOf(positionals[0]!, ctx.cwd);

    const client = await ctx.client();
    const classes = await withSchemaIds(client, given, ctx.cwd);
    const params: SplitParams = { classes };
    if (values['no-other']) params.other = false;
    if (type !== undefined) params.type = type as SplitSourceType;
    if (values.citations) params.citations = true;
    if (values.model !== undefined) params.model = values.model;
    // On a terminal, the bundle's pages done so far (those of documents whose extractions are
    // final) on one line redrawn in place and wiped at the end: a long bundle is seen moving.
    const live = ctx.stderr.isTTY === true;
    const line = (text: string) => ctx.stderr.write(`\r${text}\u001b[K`);
    const watch = (p: Progress) => line(`splitting: pages ${p.pagesDone}/${p.pagesTotal} done`);
    const outcome = await client
      .split(source, params, live ? { onProgress: watch } : {})
      .finally(() => live && line(''));
    if (values.json) printJson(ctx.stdout, outcome);
    else ctx.stdout.write(table(outcome));
    const failed = outcome.documents.filter((d) => d.extraction?.status === 'failed').length;
    ctx.stderr.write(
      `bundle ${outcome.parent.id}: ${outcome.documents.length} documents, ` +
        `${outcome.documents.filter((d) => d.extraction).length} extracted, ${failed} failed\n`,
    );
    return failed > 0 ? 1 : 0;
  },
};

/** A class as given: its schema still an id or a file name. */
interface GivenClass {
  name: string;
  schema?: string;
  description?: string;
}

/** `--class NAME[=SCHEMA]` and `--describe NAME=TEXT`, split at the first `=`. */
export function parseClasses(classes: string[], describes: string[]): GivenClass[] {
  if (classes.length === 0) throw new UsageError('name at least one --class', USAGE);
  const given = classes.map((value): GivenClass => {
    const at = value.indexOf('=');
    const name = (at < 0 ? value : value.slice(0, at)).trim();
    const schema = at < 0 ? '' : value.slice(at + 1).trim();
    if (name === '') throw new UsageError(`--class ${value}: the class needs a name`, USAGE);
    if (at >= 0 && schema === '')
      throw new UsageError(`--class ${value}: name a schema after "=", or leave "=" out`, USAGE);
    return schema ? { name, schema } : { name };
  });
  for (const value of describes) {
    const at = value.indexOf('=');
    const name = value.slice(0, Math.max(at, 0)).trim();
    if (at < 0 || name === '')
      throw new UsageError(`--describe ${value}: write it as NAME=TEXT`, USAGE);
    const target = given.find((c) => c.name === name);
    if (!target) throw new UsageError(`--describe ${name}: there is no --class ${name}`, USAGE);
    target.description = value.slice(at + 1).trim();
  }
  return given;
}

/** A schema named by a file is made once (or found) as `xt extract --schema file.json` does. */
async function withSchemaIds(
  client: XtClient,
  given: GivenClass[],
  cwd: string,
): Promise<SplitClass[]> {
  const classes: SplitClass[] = [];
  for (const { name, schema, description } of given) {
    const c: SplitClass = { name };
    if (description !== undefined) c.description = description;
    if (schema !== undefined)
      c.schema_id = looksLikeFile(schema)
        ? (await schemaForFile(client, await readSchemaFile(path.resolve(cwd, schema)))).schema.id
        : schema;
    classes.push(c);
  }
  return classes;
}

async function sourceOf(arg: string, cwd: string): Promise<string | { path: string }> {
  if (/^https?:\/\//i.test(arg)) return arg;
  const file = path.resolve(cwd, arg);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new UsageError(`${arg}: no such file`);
  return { path: file };
}

const HEADINGS = ['CLASS', 'PAGES', 'CONFIDENCE', 'EXTRACTION', 'STATUS'];

/** One line per document under a heading, as `xt models` prints its table. */
function table(outcome: SplitOutcome): string {
  const rows = [HEADINGS, ...outcome.documents.map(row)];
  const widths = HEADINGS.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

function row(d: SplitDocumentRecord): string[] {
  const { from, to } = d.pages;
  return [
    d.class,
    from === to ? String(from) : `${from}-${to}`,
    d.confidence.toFixed(2),
    // No extraction: a class without a schema, `other`, or one deleted since.
    d.extractionId ?? '-',
    d.extraction
      ? d.extraction.status === 'failed'
        ? `failed (${d.extraction.error?.code ?? 'INTERNAL'})`
        : d.extraction.status
      : d.extractionId
        ? 'deleted'
        : '-',
  ];
}
