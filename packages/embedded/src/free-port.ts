import { createServer } from 'node:net';

const LOOPBACK = '127.0.0.1';

/** Asks the kernel for an unused TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the address of a probe socket'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/** True when nothing listens on `port` at `host` (127.0.0.1 unless given): a bind succeeds. */
export function isPortFree(port: number, host = LOOPBACK): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
