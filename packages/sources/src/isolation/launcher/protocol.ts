/**
 * The helper launcher's wire format (docs/security.md#the-helper-launcher): frames of a one-byte
 * kind, a four-byte length and the payload, both ways over one unix socket connection. The
 * client's first frame is the request; then the helper's output streams come back, the client's
 * fd 3 goes to the helper, and the launcher's last frame says how the helper ended, or why it
 * was refused. An empty data frame is that stream's end.
 */
export const FRAME = {
  request: 0,
  stdout: 1,
  stderr: 2,
  /** Playwright's pipe into Chromium (`--remote-debugging-pipe` reads fd 3). */
  pipeIn: 3,
  /** Chromium's pipe back (fd 4). */
  pipeOut: 4,
  exit: 10,
  refused: 11,
} as const;

/** What the worker asks for: one allow-listed program, as one allowed user. */
export interface HelperRequest {
  /** A name from the launcher's allow-list (`chromium`, `soffice`, …), not a path. */
  program: string;
  user: string;
  args: string[];
  /** The helper starts in `/`: a worker's folder is not root's to enter without DAC_OVERRIDE. */
  env: Record<string, string>;
  /** Relay fds 3 and 4 (Playwright's pipe). */
  pipes?: boolean;
  /** prlimit's bounds, in bytes: address space and the largest file. */
  limits?: { addressSpace: number; fileSize: number };
  /** unshare's flags, run as the user after the switch; only those in UNSHARE_FLAGS. */
  unshare?: string[];
}

/** The helper's end: an exit status or the signal that killed it. */
export interface HelperExit {
  code: number | null;
  signal: string | null;
}

/** unshare flags that take no program or path: none of them can run anything else. */
export const UNSHARE_FLAGS: ReadonlySet<string> = new Set([
  '--user',
  '--map-current-user',
  '--map-root-user',
  '--net',
  '--pid',
  '--fork',
  '--kill-child',
  '--mount',
  '--mount-proc',
]);

export function frame(kind: number, payload: Buffer | string = Buffer.alloc(0)): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const head = Buffer.alloc(5);
  head.writeUInt8(kind, 0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Frames above this are a broken or hostile peer: the connection is dropped. */
const MAX_FRAME = 64 * 1024 * 1024;

/** Feeds bytes as they arrive; calls `onFrame` for each whole frame. */
export function frameReader(
  onFrame: (kind: number, payload: Buffer) => void,
): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (length > MAX_FRAME) throw new Error(`frame of ${length} bytes`);
      if (pending.length < 5 + length) return;
      const kind = pending.readUInt8(0);
      const payload = pending.subarray(5, 5 + length);
      pending = pending.subarray(5 + length);
      onFrame(kind, payload);
    }
  };
}

const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string');

/** The request, checked for shape only; the launcher's policy decides what is allowed. */
export function parseRequest(payload: Buffer): HelperRequest {
  const r = JSON.parse(payload.toString('utf8')) as Partial<HelperRequest>;
  const env = r.env ?? {};
  if (
    typeof r.program !== 'string' ||
    typeof r.user !== 'string' ||
    !isStrings(r.args) ||
    typeof env !== 'object' ||
    !Object.values(env).every((v) => typeof v === 'string') ||
    (r.unshare !== undefined && !isStrings(r.unshare)) ||
    (r.limits !== undefined &&
      !(Number.isSafeInteger(r.limits.addressSpace) && Number.isSafeInteger(r.limits.fileSize)))
  )
    throw new Error('malformed request');
  return r as HelperRequest;
}
