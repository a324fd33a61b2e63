import type { ExtractionListQuery, ExtractionStatus } from '../types.ts';
import { parse, positionals, printJson } from './args.ts';
import { UsageError } from './command.ts';
import { listOptions, listQuery, LIST_USAGE, printRecords } from './list-options.ts';
import { withSubcommands } from './subcommands.ts';

const STATUSES: ExtractionStatus[] = ['pending', 'processing', 'completed', 'failed'];
const LIST = `list [--status S] [--schema ID] ${LIST_USAGE}`;

export const extractionsCommand = withSubcommands(
  'extractions',
  'list, get or delete extractions',
  {
    list: {
      usage: LIST,
      async run(args, ctx) {
        const { values } = parse(
          args,
          { ...listOptions, status: { type: 'string' }, schema: { type: 'string' } },
          `xt extractions ${LIST}`,
        );
        const query: ExtractionListQuery = listQuery(values);
        if (values.status !== undefined) {
          if (!STATUSES.includes(values.status as ExtractionStatus)) {
            throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
          }
          query.status = values.status as ExtractionStatus;
        }
        if (values.schema !== undefined) query.schema_id = values.schema;
        const client = await ctx.client();
        await printRecords(
          ctx.stdout,
          values.all === true,
          () => client.extractions.list(query),
          () => client.extractions.all(query),
        );
        return 0;
      },
    },
    get: {
      usage: 'get <id>',
      async run(args, ctx) {
        const usage = 'xt extractions get <id>';
        const [id] = positionals(parse(args, {}, usage).positionals, ['id'], usage);
        printJson(ctx.stdout, await (await ctx.client()).extractions.get(id!));
        return 0;
      },
    },
    delete: {
      usage: 'delete <id>',
      async run(args, ctx) {
        const usage = 'xt extractions delete <id>';
        const [id] = positionals(parse(args, {}, usage).positionals, ['id'], usage);
        await (await ctx.client()).extractions.delete(id!);
        ctx.stderr.write(`deleted extraction ${id}\n`);
        return 0;
      },
    },
  },
);
