import type { WebhookEndpointPatch, WebhookEventType } from '../webhook-types.ts';
import { parse, positionals, printJson } from './args.ts';
import { UsageError, type CliContext } from './command.ts';
import { listOptions, listQuery, LIST_USAGE, printRecords } from './list-options.ts';
import { withSubcommands, type Subcommand } from './subcommands.ts';

const EVENTS: WebhookEventType[] = ['extraction.completed', 'extraction.failed'];

function events(values: string[] | undefined): WebhookEventType[] | undefined {
  if (values === undefined) return undefined;
  for (const e of values) {
    if (!EVENTS.includes(e as WebhookEventType)) {
      throw new UsageError(`--event must be one of ${EVENTS.join(', ')}; got "${e}"`);
    }
  }
  return values as WebhookEventType[];
}

/** A subcommand taking one endpoint id and printing what `call` returns. */
function byId(name: string, call: (id: string, ctx: CliContext) => Promise<unknown>): Subcommand {
  const usage = `xt webhooks ${name} <id>`;
  return {
    usage: `${name} <id>`,
    async run(args, ctx) {
      const [id] = positionals(parse(args, {}, usage).positionals, ['id'], usage);
      const result = await call(id!, ctx);
      if (result !== undefined) printJson(ctx.stdout, result);
      return 0;
    },
  };
}

const CREATE = 'create --url URL [--event E]… [--description TEXT]';
const UPDATE = 'update <id> [--url URL] [--event E]… [--description TEXT] [--enable | --disable]';

export const webhooksCommand = withSubcommands('webhooks', 'manage webhook endpoints', {
  list: {
    usage: `list ${LIST_USAGE}`,
    async run(args, ctx) {
      const { values } = parse(args, listOptions, `xt webhooks list ${LIST_USAGE}`);
      const client = await ctx.client();
      const query = listQuery(values);
      await printRecords(
        ctx.stdout,
        values.all === true,
        () => client.webhooks.list(query),
        () => client.webhooks.all(query),
      );
      return 0;
    },
  },
  create: {
    usage: CREATE,
    async run(args, ctx) {
      const { values, positionals: rest } = parse(
        args,
        {
          url: { type: 'string' },
          event: { type: 'string', multiple: true },
          description: { type: 'string' },
        },
        `xt webhooks ${CREATE}`,
      );
      positionals(rest, [], `xt webhooks ${CREATE}`);
      if (values.url === undefined)
        throw new UsageError('--url is required', `xt webhooks ${CREATE}`);
      const created = await (
        await ctx.client()
      ).webhooks.create({
        url: values.url,
        events: events(values.event) ?? EVENTS,
        ...(values.description !== undefined ? { description: values.description } : {}),
      });
      printJson(ctx.stdout, created);
      ctx.stderr.write('Store the secret now: it is shown only once.\n');
      return 0;
    },
  },
  get: byId('get', async (id, ctx) => (await ctx.client()).webhooks.get(id)),
  update: {
    usage: UPDATE,
    async run(args, ctx) {
      const usage = `xt webhooks ${UPDATE}`;
      const { values, positionals: rest } = parse(
        args,
        {
          url: { type: 'string' },
          event: { type: 'string', multiple: true },
          description: { type: 'string' },
          enable: { type: 'boolean' },
          disable: { type: 'boolean' },
        },
        usage,
      );
      const [id] = positionals(rest, ['id'], usage);
      if (values.enable && values.disable)
        throw new UsageError('--enable and --disable exclude each other', usage);
      const patch: WebhookEndpointPatch = {};
      if (values.url !== undefined) patch.url = values.url;
      const chosen = events(values.event);
      if (chosen) patch.events = chosen;
      if (values.description !== undefined) patch.description = values.description;
      if (values.enable) patch.enabled = true;
      if (values.disable) patch.enabled = false;
      printJson(ctx.stdout, await (await ctx.client()).webhooks.update(id!, patch));
      return 0;
    },
  },
  delete: byId('delete', async (id, ctx) => {
    await (await ctx.client()).webhooks.delete(id);
    ctx.stderr.write(`deleted webhook endpoint ${id}\n`);
    return undefined;
  }),
  'rotate-secret': byId('rotate-secret', async (id, ctx) =>
    (await ctx.client()).webhooks.rotateSecret(id),
  ),
  deliveries: byId('deliveries', async (id, ctx) =>
    (await ctx.client()).webhooks.deliveries(id, { limit: 100 }),
  ),
});
