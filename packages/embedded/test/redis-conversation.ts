import { connect } from 'node:net';

/**
 * Sends inline Redis commands followed by QUIT and returns everything the server said, so tests
 * can talk to redis-server over a raw socket without a client library. Outside src/ because only
 * this package's tests use it; @xt/testkit cannot hold it, as testkit depends on this package.
 */
export function redisConversation(url: string, commands: readonly string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let reply = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('redis conversation timed out')));
    socket.once('error', reject);
    socket.once('connect', () => socket.write([...commands, 'QUIT', ''].join('\r\n')));
    socket.on('data', (chunk: Buffer) => (reply += chunk.toString('utf8')));
    socket.once('close', () => resolve(reply));
  });
}
