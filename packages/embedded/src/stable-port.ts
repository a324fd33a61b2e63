import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, isPortFree } from './free-port.ts';

const PORT_FILE = 'port';

/**
 * Picks the port a server in `dir` should listen on. An explicit port wins. Otherwise the port
 * used last time is reused while it is free, so URLs that users copied (psql, GUI clients) keep
 * working across restarts; when it is taken, a new free port is chosen and remembered.
 */
export async function choosePort(dir: string, requested?: number): Promise<number> {
  let port = requested;
  if (port === undefined) {
    const remembered = await readRememberedPort(dir);
    port =
      remembered !== undefined && (await isPortFree(remembered)) ? remembered : await freePort();
  }
  await writeFile(join(dir, PORT_FILE), `${port}\n`);
  return port;
}

async function readRememberedPort(dir: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, PORT_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const port = Number.parseInt(text.trim(), 10);
  return Number.isInteger(port) && port > 0 && port < 65_536 ? port : undefined;
}
