import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, isPortFree } from './free-port.ts';

describe('freePort', () => {
  it('returns a port that can be bound, and isPortFree notices when it is taken', async () => {
    const port = await freePort();
    expect(await isPortFree(port)).toBe(true);
    const server = createServer();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    try {
      expect(await isPortFree(port)).toBe(false);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
