/** CONNECT tunnels (https, wss) through the proxy, spliced to the address the gate checked. */
import type http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { REALM, toRefusal, type ProxyGate } from './proxy-gate.ts';
import type { SessionInternals } from './proxy-sessions.ts';

/** `host:port` or `[v6]:port` from a CONNECT request line; null when malformed. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2] ?? '', port };
}

/** A bodyless answer on a raw socket (Node has stopped parsing it), closing the connection. */
export function writeRaw(socket: Duplex, status: string, extra: string[] = []): void {
  if (socket.destroyed) return;
  socket.end(
    [`HTTP/1.1 ${status}`, ...extra, 'Content-Length: 0', 'Connection: close', '', ''].join('\r\n'),
  );
}

/** Authenticates and admits one CONNECT, then opens the tunnel. */
export async function openTunnel(
  gate: ProxyGate,
  req: http.IncomingMessage,
  client: Duplex,
  head: Buffer,
): Promise<void> {
  client.on('error', () => client.destroy());
  const session = gate.authenticate(req);
  if (!session) {
    // Node stops parsing a socket once it has emitted 'connect', so the challenge must close it;
    // Chromium then retries on a fresh connection with credentials.
    writeRaw(client, '407 Proxy Authentication Required', [`Proxy-Authenticate: ${REALM}`]);
    return;
  }
  session.track(client);
  const authority = parseAuthority(req.url ?? '');
  if (!authority) {
    writeRaw(client, '400 Bad Request');
    return;
  }
  const verdict = await gate.admit(session, authority.host, authority.port);
  if ('code' in verdict) {
    writeRaw(client, verdict.code === 'SOURCE_FORBIDDEN' ? '403 Forbidden' : '502 Bad Gateway', [
      `X-Xt-Proxy-Refusal: ${verdict.code}`,
    ]);
    return;
  }
  if (session.closed || client.destroyed) {
    client.destroy();
    return;
  }
  const upstream = net.connect({
    host: verdict.address,
    port: authority.port,
    family: verdict.family,
  });
  splice(gate, session, { client, upstream, head, ...authority });
}

/** Joins client and upstream once connected, counting what comes back against the budget. */
function splice(
  gate: ProxyGate,
  session: SessionInternals,
  tunnel: { client: Duplex; upstream: net.Socket; head: Buffer; host: string; port: number },
): void {
  const { client, upstream, head, host, port } = tunnel;
  session.track(upstream);
  upstream.setTimeout(gate.timeoutMs, () => upstream.destroy());
  let connected = false;
  upstream.once('connect', () => {
    connected = true;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.on('data', (chunk: Buffer) => gate.received(session, chunk.length, host, port));
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', (err) => {
    if (connected) {
      client.destroy();
      return;
    }
    session.refuse(toRefusal(host, port, err));
    writeRaw(client, '502 Bad Gateway');
  });
  upstream.on('close', () => {
    if (connected) client.destroy();
  });
  client.on('close', () => upstream.destroy());
}
