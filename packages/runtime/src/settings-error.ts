/**
 * The exit status of a process that cannot run with the settings it was given (sysexits'
 * EX_CONFIG): an invalid variable, or an address it cannot listen on. Starting it again changes
 * nothing, so a supervisor (the launcher) does not restart it; the one line it printed says
 * which setting to change.
 */
export const SETTINGS_EXIT_CODE = 78;

/** A start-up failure only a change of settings can fix; the message names the setting. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

const REASONS: Record<string, string> = {
  EADDRINUSE: 'another process listens there',
  EACCES: 'this user may not listen there',
  EADDRNOTAVAIL: 'this machine has no such address',
};

/**
 * A failed `listen` as a SettingsError naming the settings that chose the address, or the
 * error itself when it is not one a setting causes.
 */
export function listenFailure(
  error: Error,
  what: string,
  address: { host: string; port: number },
  fix: string,
): Error {
  const reason = REASONS[(error as NodeJS.ErrnoException).code ?? ''];
  if (reason === undefined) return error;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return new SettingsError(`${what} cannot listen on ${host}:${address.port}: ${reason}; ${fix}`);
}
