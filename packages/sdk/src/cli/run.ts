import { XtClient } from '../client.ts';
import { ApiError, XtError } from '../errors.ts';
import { UsageError, type CliContext } from './command.ts';
import { commands } from './commands.ts';
import { resolveConnection, type ConnectionEnv, type Connection } from './config.ts';

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  return [
    'Usage: xt <command> [options]   (xt <command> --help for its options)',
    '',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Connection: XT_BASE_URL and XT_API_KEY, or the development key of a local `npm start`.',
  ].join('\n');
}

/** Runs one `xt` command line and returns the exit code; never throws. */
export async function runCli(
  argv: string[],
  io: Pick<CliContext, 'stdout' | 'stderr' | 'cwd'> & { env: ConnectionEnv },
): Promise<number> {
  const [name, ...args] = argv;
  let connection: Promise<Connection> | undefined;
  const ctx: CliContext = {
    ...io,
    connection: () => (connection ??= resolveConnection(io.env, io.cwd)),
    client: async () => new XtClient(await ctx.connection()),
  };
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  try {
    if (!command) throw new UsageError(`unknown command "${name}"`, usage());
    return await command.run(args, ctx);
  } catch (error) {
    io.stderr.write(`xt ${name}: ${describe(error)}\n`);
    if (error instanceof UsageError) {
      if (error.usage) io.stderr.write(`${error.usage}\n`);
      return 2;
    }
    return 1;
  }
}

function describe(error: unknown): string {
  if (error instanceof ApiError) {
    return `${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`;
  }
  if (error instanceof XtError || error instanceof Error) return error.message;
  return String(error);
}
