import path from 'node:path';
import type { ReviewListQuery } from '../review-types.ts';
import type { ReviewStatus } from '../types.ts';
import { parse, positionals } from './args.ts';
import { UsageError } from './command.ts';
import { listOptions, listQuery, LIST_USAGE, printRecords } from './list-options.ts';
import { exportReviewedDataset } from './review-export.ts';
import { withSubcommands } from './subcommands.ts';

const STATUSES: readonly ReviewStatus[] = ['needs_review', 'approved', 'rejected'];
const LIST = `list [--schema ID] [--status needs_review|approved|rejected] ${LIST_USAGE}`;
const EXPORT = 'export --schema ID --out DIR';

export const reviewsCommand = withSubcommands(
  'reviews',
  'list the review queue; export reviewed extractions as an evaluation data set',
  {
    list: {
      usage: LIST,
      async run(args, ctx) {
        const { values } = parse(
          args,
          { ...listOptions, schema: { type: 'string' }, status: { type: 'string' } },
          `xt reviews ${LIST}`,
        );
        const query: ReviewListQuery = listQuery(values);
        if (values.schema !== undefined) query.schema_id = values.schema;
        if (values.status !== undefined) {
          const status = STATUSES.find((s) => s === values.status);
          if (!status) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
          query.status = status;
        }
        const client = await ctx.client();
        await printRecords(
          ctx.stdout,
          values.all === true,
          () => client.reviews.list(query),
          () => client.reviews.all(query),
        );
        return 0;
      },
    },
    export: {
      usage: EXPORT,
      async run(args, ctx) {
        const usage = `xt reviews ${EXPORT}`;
        const { values, positionals: rest } = parse(
          args,
          { schema: { type: 'string' }, out: { type: 'string' } },
          usage,
        );
        positionals(rest, [], usage);
        if (!values.schema || !values.out) throw new UsageError('give --schema and --out', usage);
        const dir = path.resolve(ctx.cwd, values.out);
        const done = await exportReviewedDataset(await ctx.client(), values.schema, dir);
        for (const s of done.skipped) ctx.stderr.write(`left out ${s.case}: ${s.reason}\n`);
        ctx.stderr.write(
          `wrote ${done.written} cases to ${dir}; score them with: xt eval --dataset ${values.out}\n`,
        );
        return 0;
      },
    },
  },
);
