/**
 * The worker container's first process (docs/security.md#the-helper-launcher): root, it starts
 * the worker as `--worker` (the image's `node`) with no capabilities and no way to gain any,
 * and then does only the switch the worker cannot: Chromium (CHROMIUM_PATH) as BROWSER_USER,
 * LibreOffice (CONVERTER_PATH) as one of CONVERTER_USER's users, on the worker's request over a
 * socket only the worker may reach. The worker, which parses every hostile file in-process, is
 * never root.
 *
 *   node dist/helper-launcher.js --worker=node -- node dist/main.js
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createAppLogger } from '@xt/runtime';
import { describeUser, lookupUser, startHelperLauncher, workerCommand } from '@xt/sources/launcher';
import { launcherSettings, processEnvironment } from './config.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    worker: { type: 'string', default: 'node' },
  },
});
// The worker's own settings: the launcher allows exactly what the worker will ask for.
const env = processEnvironment();
if (process.getuid?.() !== 0 || positionals.length === 0) {
  console.error('helper-launcher: run as root, with the worker command after --');
  process.exit(2);
}
const settings = launcherSettings(env);
const logger = createAppLogger(settings, 'helper-launcher');
const converters = (settings.CONVERTER_USER ?? 'nobody').split(',').map((name) => name.trim());
const browser = settings.BROWSER_USER ?? 'nobody';
const launcher = await startHelperLauncher({
  worker: values.worker,
  programs: {
    chromium: {
      path: settings.CHROMIUM_PATH ?? '/usr/bin/chromium',
      users: [browser],
      profile: true,
    },
    soffice: { path: settings.CONVERTER_PATH ?? '/usr/bin/soffice', users: converters },
    // The converter's probe for namespaces, and its clean-up as the user that filled a folder.
    true: { path: '/usr/bin/true', users: converters },
    rm: { path: '/usr/bin/rm', users: converters },
  },
});
const workerUser = await lookupUser(values.worker, '--worker');
const [command = '', ...args] = workerCommand(workerUser, positionals);
const worker = spawn(command, args, {
  stdio: 'inherit',
  env: { ...env, HELPER_LAUNCHER: launcher.socket },
});
// What an operator checks first when a container misbehaves: who runs what.
logger.info(
  {
    worker: `${describeUser(workerUser)}, no capabilities`,
    browser,
    converters,
    socket: launcher.socket,
  },
  `worker started as ${describeUser(workerUser)} with no capabilities; Chromium only as ${browser}, LibreOffice only as ${converters.join(', ')}`,
);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => worker.kill(signal));
worker.once('exit', (code, signal) => {
  void launcher
    .close()
    .then(() => process.exit(code ?? (signal ? 128 + os.constants.signals[signal] : 1)));
});
