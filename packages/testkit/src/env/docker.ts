import { request } from 'node:http';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type DockerEndpoint = { socketPath: string } | { host: string; port: number };

/** Where a Docker engine may listen, in the order the docker CLI would try them. */
export function dockerEndpoints(env: NodeJS.ProcessEnv): DockerEndpoint[] {
  const dockerHost = env.DOCKER_HOST;
  if (dockerHost !== undefined && dockerHost !== '') {
    if (dockerHost.startsWith('unix://'))
      return [{ socketPath: dockerHost.slice('unix://'.length) }];
    if (dockerHost.startsWith('tcp://')) {
      const url = new URL(dockerHost.replace(/^tcp:/, 'http:'));
      return [{ host: url.hostname, port: Number(url.port || 2375) }];
    }
    return [];
  }
  const candidates = ['/var/run/docker.sock', join(homedir(), '.docker', 'run', 'docker.sock')];
  if (env.XDG_RUNTIME_DIR) candidates.push(join(env.XDG_RUNTIME_DIR, 'docker.sock'));
  return candidates.map((socketPath) => ({ socketPath }));
}

/**
 * True when a Docker engine answers at one of `dockerEndpoints` within `timeoutMs`. A quick
 * probe of our own, because testcontainers' discovery can take many seconds to give up on a
 * machine without Docker.
 */
export async function dockerReachable(env: NodeJS.ProcessEnv, timeoutMs = 1_500): Promise<boolean> {
  for (const endpoint of dockerEndpoints(env)) {
    const ok =
      'socketPath' in endpoint
        ? await pingOverSocket(endpoint.socketPath, timeoutMs)
        : await tcpConnects(endpoint.host, endpoint.port, timeoutMs);
    if (ok) return true;
  }
  return false;
}

function pingOverSocket(socketPath: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      { socketPath, path: '/_ping', method: 'GET', timeout: timeoutMs },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end();
  });
}

// A TLS-protected engine would not answer plain HTTP; reaching its port is enough of a sign.
function tcpConnects(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
  });
}
