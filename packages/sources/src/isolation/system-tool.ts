import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * Where the system's own tools live. A process running as root that starts a tool by name
 * would take the first one on PATH, and PATH is whatever the environment says (a directory
 * someone else can write, early in it, is enough to run their program as root): so tools that
 * run as root are named by absolute path, found here and nowhere else.
 */
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/** The absolute path of a system tool, or undefined when no system directory has it. */
export function systemTool(name: string): string | undefined {
  for (const dir of SYSTEM_DIRS) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** As systemTool, but a missing tool is an error saying what it is needed for. */
export function requireSystemTool(name: string, neededFor: string): string {
  const file = systemTool(name);
  if (file === undefined)
    throw new Error(`${name} is needed ${neededFor}; none in ${SYSTEM_DIRS.join(', ')}`);
  return file;
}
