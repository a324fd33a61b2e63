import { wantsHelp } from './args.ts';
import { UsageError, type CliContext, type Command } from './command.ts';

export interface Subcommand {
  usage: string;
  run(args: string[], ctx: CliContext): Promise<number>;
}

/** A command made of subcommands (`xt schemas list`), with a usage listing them all. */
export function withSubcommands(
  name: string,
  summary: string,
  table: Record<string, Subcommand>,
): Command {
  const usage = [
    `Usage: xt ${name} <subcommand>`,
    ...Object.values(table).map((s) => `  xt ${name} ${s.usage}`),
  ].join('\n');
  return {
    summary,
    async run(args, ctx) {
      const [sub, ...rest] = args;
      if (sub === undefined || (sub.startsWith('-') && wantsHelp([sub]))) {
        ctx.stdout.write(`${usage}\n`);
        return sub === undefined ? 2 : 0;
      }
      const found = Object.hasOwn(table, sub) ? table[sub] : undefined;
      if (!found) throw new UsageError(`unknown subcommand "${sub}"`, usage);
      if (wantsHelp(rest)) {
        ctx.stdout.write(`Usage: xt ${name} ${found.usage}\n`);
        return 0;
      }
      return found.run(rest, ctx);
    },
  };
}
