/**
 * `npx xt-mcp --http` runs the server under npm and `sh -c`; stopping npx ends those and left
 * the server holding its port. Here a shell stands in for them, and is killed.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/xt-mcp.js', import.meta.url));

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('xt-mcp --http', () => {
  it('stops, freeing its port, when the process that started it is gone', async () => {
    // `; exit` keeps the shell from exec-ing node: node stays its child, as under npx.
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" --http --port 0; exit $?`], {
      // The test run's environment (its compile cache above all: through tsx, the server's start
      // compiles the SDK and the MCP server, tens of seconds on a busy machine without it).
      env: {
        ...process.env,
        XT_API_KEY: 'sk_test_stop',
        XT_BASE_URL: 'http://127.0.0.1:9',
        XT_MCP_TOKEN: 'a'.repeat(32),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const port = await new Promise<number>((resolve, reject) => {
      shell.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /listening on http:\/\/[^:]+:(\d+)\//.exec(stderr);
        if (found) resolve(Number(found[1]));
      });
      shell.once('exit', () => reject(new Error(`xt-mcp did not start: ${stderr}`)));
    });
    // The server writes to the same pipe: it ends once the server has exited too.
    const serverGone = new Promise<void>((resolve) => shell.stderr.once('close', resolve));
    shell.kill('SIGKILL');
    await serverGone;
    expect(await refused(port)).toBe(true);
    // Starting under tsx on a loaded machine is most of this; the stop itself takes a second.
  }, 120_000);
});
