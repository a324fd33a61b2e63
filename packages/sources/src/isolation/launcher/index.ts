/**
 * The helper launcher alone (docs/security.md#the-helper-launcher): its root process loads
 * this, not the package's parsers, which it never runs.
 */
export { startHelperLauncher, workerCommand } from './server.ts';
export { describeUser, lookupUser } from '../system-user.ts';
