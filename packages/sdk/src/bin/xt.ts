#!/usr/bin/env node
import { runEval } from '../eval/index.ts';

/** `xt <command> …`: one entry per command, each taking the rest of the arguments. */
const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  eval: (argv) =>
    runEval(argv, { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }),
};

const [command, ...rest] = process.argv.slice(2);
const run = command === undefined ? undefined : COMMANDS[command];
if (!run) {
  process.stderr.write(
    `Usage: xt <command> [options]\n\nCommands:\n  ${Object.keys(COMMANDS).join('\n  ')}\n`,
  );
  process.exitCode = 2;
} else {
  process.exitCode = await run(rest);
}
