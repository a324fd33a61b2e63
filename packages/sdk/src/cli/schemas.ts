import { readFile } from 'node:fs/promises';
import { parse, positionals, printJson } from './args.ts';
import { UsageError } from './command.ts';
import { listOptions, listQuery, LIST_USAGE, printRecords } from './list-options.ts';
import { readSchemaFile, schemaForFile } from './schema-file.ts';
import { withSubcommands } from './subcommands.ts';

export const schemasCommand = withSubcommands(
  'schemas',
  'list, create, get or delete schemas; suggest one from files, or convert a JSON Schema',
  {
    list: {
      usage: `list ${LIST_USAGE}`,
      async run(args, ctx) {
        const { values } = parse(args, listOptions, `xt schemas list ${LIST_USAGE}`);
        const client = await ctx.client();
        const query = listQuery(values);
        await printRecords(
          ctx.stdout,
          values.all === true,
          () => client.schemas.list(query),
          () => client.schemas.all(query),
        );
        return 0;
      },
    },
    create: {
      usage: 'create <schema.json> [--name NAME]',
      async run(args, ctx) {
        const usage = 'xt schemas create <schema.json> [--name NAME]';
        const { values, positionals: rest } = parse(args, { name: { type: 'string' } }, usage);
        const [file] = positionals(rest, ['schema.json'], usage);
        const described = await readSchemaFile(file!, values.name);
        const { schema, reused } = await schemaForFile(await ctx.client(), described);
        if (reused) ctx.stderr.write(`schema ${schema.id} has this name and structure: using it\n`);
        printJson(ctx.stdout, schema);
        return 0;
      },
    },
    suggest: {
      usage: 'suggest <file>... [--prompt TEXT] [--model NAME]',
      async run(args, ctx) {
        const usage = 'xt schemas suggest <file>... [--prompt TEXT] [--model NAME]';
        const { values, positionals: files } = parse(
          args,
          { prompt: { type: 'string' }, model: { type: 'string' } },
          usage,
        );
        if (files.length < 1 || files.length > 5)
          throw new UsageError('expected one to five sample files', usage);
        const suggestion = await (
          await ctx.client()
        ).schemas.suggest({
          files: files.map((file) => ({ path: file })),
          ...(values.prompt === undefined ? {} : { prompt: values.prompt }),
          ...(values.model === undefined ? {} : { model: values.model }),
        });
        // The draft on stdout as `xt schemas create` takes it; how it fared on each file on stderr.
        printJson(ctx.stdout, suggestion.structure);
        for (const sample of suggestion.samples)
          ctx.stderr.write(
            `${sample.file.name}: ${sample.fields.found.length} of ${sample.fields.found.length + sample.fields.missing.length} fields found${sample.fields.missing.length ? ` (missing: ${sample.fields.missing.join(', ')})` : ''}\n`,
          );
        return 0;
      },
    },
    convert: {
      usage: 'convert <json-schema.json>',
      async run(args, ctx) {
        const usage = 'xt schemas convert <json-schema.json>';
        const [file] = positionals(parse(args, {}, usage).positionals, ['json-schema.json'], usage);
        let jsonSchema: object;
        try {
          jsonSchema = JSON.parse(await readFile(file!, 'utf8')) as object;
        } catch (error) {
          throw new UsageError(`cannot read ${file} as JSON: ${(error as Error).message}`, usage);
        }
        const converted = await (await ctx.client()).schemas.convert(jsonSchema);
        printJson(ctx.stdout, converted.structure);
        for (const dropped of converted.dropped)
          ctx.stderr.write(`not kept: ${dropped.path || '/'}: ${dropped.reason}\n`);
        return 0;
      },
    },
    get: {
      usage: 'get <id>',
      async run(args, ctx) {
        const [id] = positionals(
          parse(args, {}, 'xt schemas get <id>').positionals,
          ['id'],
          'xt schemas get <id>',
        );
        printJson(ctx.stdout, await (await ctx.client()).schemas.get(id!));
        return 0;
      },
    },
    delete: {
      usage: 'delete <id>',
      async run(args, ctx) {
        const usage = 'xt schemas delete <id>';
        const [id] = positionals(parse(args, {}, usage).positionals, ['id'], usage);
        await (await ctx.client()).schemas.delete(id!);
        ctx.stderr.write(`deleted schema ${id}\n`);
        return 0;
      },
    },
  },
);
