/**
 * Why an endpoint could not be probed (issue #36): the extraction fails with a code that says
 * so, uncharged, and the message names the endpoint without its key or URL secrets.
 */
export type ProbeFailure = 'unreachable' | 'unauthorized' | 'no-model' | 'timeout';

export class ProbeError extends Error {
  override readonly name = 'ProbeError';
  constructor(
    readonly reason: ProbeFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The endpoint as a message may name it: scheme, host and path, without user, password or
 * query (Azure and some gateways take the key as `?api-key=`).
 */
export function safeEndpoint(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return 'the configured endpoint';
  }
}
