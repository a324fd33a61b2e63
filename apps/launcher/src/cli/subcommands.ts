/**
 * The shape both CLIs share: `npm run <cli> -- <command> [--option value …] [positional …]`.
 * Help, a missing and an unknown command print the usage without touching the database;
 * every command's options are parsed strictly by node:util's parseArgs (an unknown option is
 * an error), and its required options are checked before it runs, each named in the error.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { Db } from '@xt/db';
import { runCliCommand } from './database.ts';

type Parsed<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true }>
>;

export interface Subcommand<O extends ParseArgsOptionsConfig> {
  options: O;
  /** Options the command cannot run without. */
  required?: readonly (keyof O & string)[];
  run(values: Parsed<O>['values'], positionals: string[], db: Db): Promise<void>;
}

/** A command with its option types erased, so commands with different options share a table. */
export interface AnySubcommand {
  options: ParseArgsOptionsConfig;
  required: readonly string[];
  run(values: Record<string, unknown>, positionals: string[], db: Db): Promise<void>;
}

/** Declares one command, letting TypeScript infer the types `run` receives from `options`. */
export function subcommand<const O extends ParseArgsOptionsConfig>(
  command: Subcommand<O>,
): AnySubcommand {
  return {
    options: command.options,
    required: command.required ?? [],
    // runSubcommands parses with exactly these options, so the values have exactly this type.
    run: (values, positionals, db) => command.run(values as Parsed<O>['values'], positionals, db),
  };
}

export function runSubcommands(
  applicationName: string,
  usage: string,
  commands: Record<string, AnySubcommand>,
  argv: string[] = process.argv.slice(2),
): void {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    console.log(usage);
    process.exit(name ? 0 : 2);
  }
  const command = commands[name];
  if (!command) {
    console.error(usage);
    process.exit(2);
  }
  runCliCommand(applicationName, async (db) => {
    const { values, positionals } = parseArgs({
      args: rest,
      options: command.options,
      allowPositionals: true,
    });
    for (const option of command.required)
      if (values[option] === undefined) throw new Error(`--${option} is required`);
    await command.run(values, positionals, db);
    return 0;
  });
}
