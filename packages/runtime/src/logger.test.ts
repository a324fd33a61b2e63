/**
 * The production log output is buffered and written asynchronously; these check that a process
 * ending in any of the ordinary ways still writes every line it logged.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('./logger.ts', import.meta.url));
const LINES = 200;

/** Runs a process that logs LINES lines as JSON to stdout, then ends with `ending`. */
function linesLogged(ending: string): { lines: string[]; status: number | null } {
  const script = `
    import { createLogger } from ${JSON.stringify(LOGGER)};
    const log = createLogger('info', 'test', { format: 'json' });
    for (let i = 0; i < ${LINES}; i++) log.info({ i }, 'line');
    ${ending}
  `;
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return {
    lines: run.stdout.split('\n').filter((l) => l.startsWith('{')),
    status: run.status,
  };
}

it.each([
  ['process.exit', 'process.exit(3);', 3],
  ['an uncaught exception', "setImmediate(() => { throw new Error('crash'); });", 1],
  ['the event loop running out', '', 0],
])('writes every line when the process ends by %s', (_name, ending, status) => {
  const run = linesLogged(ending);
  expect(run.status).toBe(status);
  expect(run.lines).toHaveLength(LINES);
  expect(JSON.parse(run.lines.at(-1)!)).toMatchObject({ i: LINES - 1, msg: 'line' });
});
