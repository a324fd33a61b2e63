import type { XtClient } from '../client.ts';
import type { Connection } from './config.ts';

/** Where a command writes and what it may reach; tests and `main.ts` supply it. */
export interface CliContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  cwd: string;
  /** Where the service is and the key, resolved on first use so `--help` needs no key. */
  connection(): Promise<Connection>;
  /** A client for `connection()`. */
  client(): Promise<XtClient>;
}

/** One top-level command of `xt`: `xt <name> …args`. */
export interface Command {
  /** One line for `xt --help`. */
  summary: string;
  /** Returns the process exit code. */
  run(args: string[], ctx: CliContext): Promise<number>;
}

/** Bad command-line input: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
