import { execFile } from 'node:child_process';

export const REDIS_MISSING_MESSAGE =
  'redis-server not found: install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL';

/**
 * Runs `redis-server --version` to learn whether the binary can be started at all, letting the
 * OS resolve the name through PATH exactly as the later spawn will.
 */
export function checkRedisBinary(redisServerPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(redisServerPath, ['--version'], { timeout: 10_000 }, (error, stdout) => {
      if (error === null) {
        resolve(stdout.trim());
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES') {
        reject(new Error(REDIS_MISSING_MESSAGE, { cause: error }));
        return;
      }
      reject(new Error(`${redisServerPath} --version failed: ${error.message}`, { cause: error }));
    });
  });
}
