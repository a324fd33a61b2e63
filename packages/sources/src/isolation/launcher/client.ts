/**
 * The helper launcher's client, run by the worker in place of a helper program
 * (docs/security.md#the-helper-launcher): `node client.js <socket> <request JSON> [args…]`. It
 * asks the launcher for the program, with its own environment and the arguments
 * after the request, then relays: the helper's stdout and stderr to its own, and with `pipes`
 * Playwright's fds 3 and 4. It exits as the helper did. Killing it (its process group, as the
 * converter's deadline and Playwright do) closes the connection, and the launcher kills the
 * helper's group.
 */
import net from 'node:net';
import { FRAME, frame, frameReader, type HelperExit, type HelperRequest } from './protocol.ts';

const [socket = '', json = '{}', ...extra] = process.argv.slice(2);
const base = JSON.parse(json) as Pick<HelperRequest, 'program' | 'user'> & Partial<HelperRequest>;
const request: HelperRequest = {
  ...base,
  args: [...(base.args ?? []), ...extra],
  env: {
    ...Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    ...base.env,
  },
};

const conn = net.connect(socket);
conn.on('error', (err) => {
  process.stderr.write(`helper launcher at ${socket}: ${err.message}\n`);
  process.exit(125);
});
conn.write(frame(FRAME.request, JSON.stringify(request)));

const pipeOut = request.pipes ? new net.Socket({ fd: 4, readable: false, writable: true }) : null;
pipeOut?.on('error', () => undefined);
if (request.pipes) {
  const pipeIn = new net.Socket({ fd: 3, readable: true, writable: false });
  pipeIn.on('data', (chunk: Buffer) => conn.write(frame(FRAME.pipeIn, chunk)));
  pipeIn.on('end', () => conn.write(frame(FRAME.pipeIn)));
  pipeIn.on('error', () => undefined);
}

let status = 125;
const signals: Record<string, number> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGSEGV: 11 };
conn.on(
  'data',
  frameReader((kind, payload) => {
    if (kind === FRAME.stdout) process.stdout.write(payload);
    else if (kind === FRAME.stderr) process.stderr.write(payload);
    else if (kind === FRAME.pipeOut) {
      if (payload.length === 0) pipeOut?.end();
      else pipeOut?.write(payload);
    } else if (kind === FRAME.exit) {
      const exit = JSON.parse(payload.toString('utf8')) as HelperExit;
      status = exit.code ?? 128 + (signals[exit.signal ?? ''] ?? 1);
    } else if (kind === FRAME.refused) {
      process.stderr.write(`helper launcher refused: ${payload.toString('utf8')}\n`);
      status = 126;
    }
  }),
);
// Exits once its own output is written, as the helper did.
conn.on('close', () => {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(status)));
});
