/**
 * What `npm start` runs (`exec node`, so npm's child is this process, with no shell between).
 * It runs the launcher (main.ts) in a session of its own and relays SIGINT, SIGTERM and SIGHUP
 * to it, then exits as the launcher did.
 *
 * The session is the point: a terminal's Ctrl-C signals every process of the foreground group
 * at once, and PostgreSQL and Redis, getting it at the same moment as the API and workers, died
 * first and left them warning about lost connections while they drained. Now the signal reaches
 * only npm and this process, and the launcher stops its children in order. Run with Node's own
 * type stripping (no loader): it imports nothing but Node's modules.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
// The launcher and the apps it starts load their TypeScript with Node's own transform (not
// plain stripping: some classes use parameter properties). tsx's loader cost each of them 1-2 s
// more CPU at every start; only the flag's own warning is hidden.
const typescript = ['--experimental-transform-types', '--disable-warning=ExperimentalWarning'];
const launcher = spawn(process.execPath, [...typescript, main], {
  // setsid(): a new session and process group, out of reach of the terminal's signals.
  detached: true,
  // The IPC channel closes if this process is killed outright: the launcher then stops too.
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => launcher.kill(signal));
}

launcher.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0));
});
