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
  const traceId = given?.traceId ?? randomBytes(16).toString('hex');
  const flags = given?.flags ?? '01';
  return `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}`;
}
