import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `parseArgs` in strict mode, its complaints turned into a UsageError carrying `usage`. */
export function parse<O extends Options>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

export function wantsHelp(args: string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** A positive integer option, or the default when absent. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer`);
  return n;
}

/** Exactly `count` positionals, named in the error. */
export function positionals(values: string[], names: string[], usage: string): string[] {
  if (values.length !== names.length) {
    throw new UsageError(
      `expected ${names.map((n) => `<${n}>`).join(' ') || 'no arguments'}`,
      usage,
    );
  }
  return values;
}

/** Writes a value as indented JSON followed by a newline. */
export function printJson(out: NodeJS.WritableStream, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}
