import { parse, positionals, printJson } from './args.ts';
import { listOptions, listQuery, LIST_USAGE, printRecords } from './list-options.ts';
import { readSchemaFile, schemaForFile } from './schema-file.ts';
import { withSubcommands } from './subcommands.ts';

export const schemasCommand = withSubcommands('schemas', 'list, create, get or delete schemas', {
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
});
