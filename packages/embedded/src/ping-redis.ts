import { connect } from 'node:net';

/** One raw-protocol PING; resolves with the first reply line (`+PONG`, `-LOADING ...`). */
export function pingRedis(port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('PING timed out')));
    socket.once('error', reject);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      const end = reply.indexOf('\r\n');
      if (end === -1) return;
      socket.end();
      resolve(reply.slice(0, end));
    });
    socket.once('close', () => reject(new Error('connection closed before a reply')));
  });
}
