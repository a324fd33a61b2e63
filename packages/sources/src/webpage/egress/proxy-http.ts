/** Plain-HTTP requests through the proxy, relayed one by one to the address the gate checked. */
import http from 'node:http';
import type { ResolvedAddress } from '@xt/fetcher';
import { REALM, toRefusal, type ProxyGate } from './proxy-gate.ts';
import type { SessionInternals } from './proxy-sessions.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const listed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return out;
}

function refuse(res: http.ServerResponse, status: number, code: string, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-xt-proxy-refusal': code,
  });
  res.end(text);
}

/** Authenticates, parses and admits one absolute-form request, then relays it. */
export async function relayRequest(
  gate: ProxyGate,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const session = gate.authenticate(req);
  if (!session) {
    res.writeHead(407, { 'proxy-authenticate': REALM, 'content-length': '0' }).end();
    return;
  }
  session.track(req.socket);
  let target: URL;
  try {
    target = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'content-length': '0' }).end();
    return;
  }
  // Absolute-form http only: https is tunnelled with CONNECT, anything else is not web content.
  if (target.protocol !== 'http:') {
    res.writeHead(400, { 'content-length': '0' }).end();
    return;
  }
  const port = target.port === '' ? 80 : Number(target.port);
  const verdict = await gate.admit(session, target.hostname, port);
  if ('code' in verdict) {
    const status = verdict.code === 'SOURCE_FORBIDDEN' ? 403 : 502;
    refuse(res, status, verdict.code, `Refused by the extraction service: ${verdict.message}\n`);
    return;
  }
  if (session.closed) {
    res.destroy();
    return;
  }
  forward(gate, session, { req, res, target, port, verdict });
}

/** Sends the request to the checked address and streams the answer back, counting its bytes. */
function forward(
  gate: ProxyGate,
  session: SessionInternals,
  hop: {
    req: http.IncomingMessage;
    res: http.ServerResponse;
    target: URL;
    port: number;
    verdict: ResolvedAddress;
  },
): void {
  const { req, res, target, port, verdict } = hop;
  const headers = endToEnd(req.headers);
  headers.host = target.host;
  const upstream = http.request({
    host: verdict.address,
    family: verdict.family,
    port,
    method: req.method,
    path: `${target.pathname}${target.search}`,
    headers,
    agent: gate.agentFor(session),
    setHost: false,
    timeout: gate.timeoutMs,
  });
  upstream.on('socket', (socket) => session.track(socket));
  upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
  upstream.on('error', (err) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const refusal = toRefusal(target.hostname, port, err);
    session.refuse(refusal);
    refuse(res, 502, refusal.code, `Upstream failed: ${refusal.message}\n`);
  });
  upstream.on('response', (upRes) => {
    res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, endToEnd(upRes.headers));
    upRes.on('data', (chunk: Buffer) =>
      gate.received(session, chunk.length, target.hostname, port),
    );
    upRes.pipe(res);
    upRes.on('error', () => res.destroy());
  });
  req.pipe(upstream);
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
}
