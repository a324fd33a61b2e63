import type { Model } from '../types.ts';
import { parse, positionals, wantsHelp } from './args.ts';
import type { Command } from './command.ts';

const USAGE = 'xt models [--json]';

/**
 * `xt models`: which names `--model` takes, so a user picks one without reading the operator's
 * configuration. A table for people; `--json` one record a line, as the `list` commands print.
 */
export const modelsCommand: Command = {
  summary: 'list the models the service serves and what each can do',
  async run(args, ctx) {
    if (wantsHelp(args)) {
      ctx.stdout.write(`Usage: ${USAGE}\n`);
      return 0;
    }
    const { values, positionals: rest } = parse(args, { json: { type: 'boolean' } }, USAGE);
    positionals(rest, [], USAGE);
    const models = await (await ctx.client()).models.list();
    if (values.json) {
      for (const model of models) ctx.stdout.write(`${JSON.stringify(model)}\n`);
      return 0;
    }
    ctx.stdout.write(table(models));
    return 0;
  },
};

const HEADINGS = ['MODEL', 'DEFAULT', 'OUTPUT', 'IMAGES', 'CONTEXT', 'MAX OUTPUT', 'PROBED'];

function table(models: Model[]): string {
  const rows = [HEADINGS, ...models.map(row)];
  const widths = HEADINGS.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => `${r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd())
    .join('\n')
    .concat('\n');
}

function row(model: Model): string[] {
  const c = model.capabilities;
  // Unprobed: nothing is known yet, and a dash says so rather than guessing.
  const unknown = '-';
  return [
    model.id,
    model.default ? 'yes' : '',
    c?.structuredOutput ?? unknown,
    c ? (c.images ? 'yes' : 'as OCR text') : unknown,
    c?.contextTokens?.toString() ?? unknown,
    c?.outputTokens?.toString() ?? unknown,
    model.probedAt ?? unknown,
  ];
}
