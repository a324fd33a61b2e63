import type { HelperRequest } from './protocol.ts';

// From sources the client is client.ts beside this file; in the worker's bundle the build
// emits it as dist/helper-client.js beside dist/main.js.
const CLIENT = import.meta.url.endsWith('.ts')
  ? new URL('./client.ts', import.meta.url)
  : new URL('./helper-client.js', import.meta.url);

/**
 * The command line that has the launcher at `socket` start `request.program` as `request.user`
 * (docs/security.md#the-helper-launcher): arguments appended to it go to the program.
 */
export function launcherCommand(
  socket: string,
  request: Pick<HelperRequest, 'program' | 'user'> & Partial<HelperRequest>,
): string[] {
  return [process.execPath, CLIENT.pathname, socket, JSON.stringify(request)];
}
