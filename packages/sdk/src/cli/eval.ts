import { runEval } from '../eval/index.ts';
import type { Command } from './command.ts';

export const evalCommand: Command = {
  summary: 'score the service on a data set of documents and expected outputs',
  async run(args, ctx) {
    // The same connection as every other command (XT_BASE_URL, XT_API_KEY, a local npm start)
    // unless the command line names one; when none is found, eval says what is missing.
    const given = (flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
    const connection = await ctx.connection().catch(() => undefined);
    const defaults: string[] = [];
    if (connection && !given('--base-url')) defaults.push('--base-url', connection.baseUrl);
    if (connection && !given('--key')) defaults.push('--key', connection.apiKey);
    return runEval([...args, ...defaults], {
      stdout: ctx.stdout,
      stderr: ctx.stderr,
      cwd: ctx.cwd,
    });
  },
};
