import { isIP } from 'node:net';
import os from 'node:os';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The Host header names to answer, in the form the MCP SDK's check compares (a URL's
 * hostname: lower case, IPv6 in brackets, no port). A page that rebinds its own name to this
 * server's address still sends its own name, so only names of this machine pass: loopback, the
 * bound address (or, bound to every interface, the machine's name and addresses) and `extra`.
 */
export function allowedHostnames(bindHost: string, extra: string[]): string[] {
  const own = WILDCARDS.has(bindHost) ? [os.hostname(), ...interfaceAddresses()] : [bindHost];
  return [...new Set([...LOOPBACK_NAMES, ...own, ...extra].map(urlHostname))];
}

function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.scopeid === undefined || a.scopeid === 0)
    .map((a) => a.address);
}

function urlHostname(host: string): string {
  const literal = isIP(host) === 6 ? `[${host}]` : host;
  if (!URL.canParse(`http://${literal}`) || /[/:@?#]/.test(literal.replace(/^\[.*\]$/, ''))) {
    throw new Error(`not a host name: ${host}`);
  }
  return new URL(`http://${literal}`).hostname;
}
