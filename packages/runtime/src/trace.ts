import { randomBytes } from 'node:crypto';

/**
 * W3C Trace Context (`traceparent: 00-<trace-id>-<parent-id>-<flags>`): the one id that ties a
 * client's request, the API's lines and the worker's lines about the job together.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

export interface TraceParent {
  traceId: string;
  parentId: string;
  flags: string;
}

/** A valid header's parts; undefined for anything the specification says to ignore. */
export function parseTraceparent(header: string | undefined): TraceParent | undefined {
  const match = header ? TRACEPARENT.exec(header.trim()) : null;
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  // Version ff is invalid; version 00 has exactly four fields; all-zero ids are invalid.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  return { traceId, parentId, flags };
}

/**
 * The traceparent this process sends onward: the caller's trace id when it gave a valid one
 * (else a new trace), with this process's own span id as the parent.
 */
export function continueTrace(header: string | undefined): string {
  const given = parseTraceparent(header);
  const traceId = given?.traceId ?? randomHex(16);
  const flags = given?.flags ?? '01';
  return `00-${traceId}-${randomHex(8)}-${flags}`;
}

/**
 * Random bytes drawn from a pool filled 4 KiB at a time (as crypto.randomUUID does): two calls
 * for fresh bytes on every request were about 3% of the API's CPU on a record read
 * (docs/performance.md). All-zero ids, which the specification forbids, are drawn again.
 */
const POOL_BYTES = 4096;
let pool = randomBytes(POOL_BYTES);
let used = 0;

function randomHex(bytes: number): string {
  for (;;) {
    if (used + bytes > POOL_BYTES) {
      pool = randomBytes(POOL_BYTES);
      used = 0;
    }
    const hex = pool.toString('hex', used, used + bytes);
    used += bytes;
    if (!/^0+$/.test(hex)) return hex;
  }
}
