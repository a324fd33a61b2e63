/**
 * Real local HTTP servers for tests that fetch: one that answers, a canary that counts every
 * connection it gets, and a port nothing listens on.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RunningServer {
  server: Server;
  port: number;
  /** Origin as `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

export async function startServer(handler: RequestListener): Promise<RunningServer> {
  const server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, '127.0.0.1');
  return { server, port, origin: `http://127.0.0.1:${port}`, close: closer(server, sockets) };
}

export interface Canary extends RunningServer {
  /** TCP connections accepted so far, on any local address (IPv4 or IPv6). */
  connections(): number;
}

/**
 * A server that must never be reached: it listens dual-stack on every local address so that
 * 127.0.0.1, ::1 and ::ffff:127.0.0.1 all land here, and counts every accepted connection.
 */
export async function startCanary(): Promise<Canary> {
  let count = 0;
  const server = createServer((_req, res) => {
    res.end('canary');
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, '::');
  return {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    close: closer(server, sockets),
    connections: () => count,
  };
}

/** A port that nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server, '127.0.0.1');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
