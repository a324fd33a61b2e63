import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@xt/embedded';
import { startCommand } from './processes.ts';

export interface RunningPgBouncer {
  /** `databaseUrl` with its host and port replaced by the bouncer's. */
  via(databaseUrl: string): string;
  stop(): Promise<void>;
}

/**
 * Debian's PgBouncer (1.18) in transaction pooling mode in front of the PostgreSQL `serverUrl`
 * names, forwarding every database name, with few server connections so that consecutive
 * queries of one client really do land on different server connections.
 */
export async function startPgBouncer(serverUrl: string, poolSize = 3): Promise<RunningPgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const dir = mkdtempSync(path.join(tmpdir(), 'xt-pgbouncer-'));
  // PgBouncer refuses to run as root; as root it is started as `postgres`, which must read these.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(path.join(dir, 'users.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432} user=${user}${password ? ` password=${password}` : ''}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      // Startup parameters node-postgres sends that PgBouncer would otherwise refuse
      // (docs/scaling.md#pgbouncer says where to set them instead).
      'ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const proc = await startCommand(
    '/usr/sbin/pgbouncer',
    [...(asRoot ? ['-u', 'postgres'] : []), ini],
    process.env,
    'process up',
  );
  return {
    via(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async stop() {
      await proc.stop('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
