/*
 * REDIS_URL names one of three set-ups (README's configuration table, docs/operations.md):
 *
 *   redis[s]://[[user]:password@]host[:port][/db]                      one server
 *   redis[s]+cluster://[[user]:password@]host[:port][,host[:port]...][/]     Redis Cluster
 *   redis[s]+sentinel://[[user]:password@]host[:port][,host[:port]...]/master[/db]
 *       [?sentinelUsername=...&sentinelPassword=...]                      Sentinel
 *
 * A cluster or Sentinel URL lists several hosts, which the WHATWG URL parser refuses, so those
 * forms are taken apart here. Credentials before `@` are Redis's (every node's, or the master's
 * and its replicas'); Sentinel's own are in the query. Messages never repeat the URL, which
 * holds a password.
 */

export interface RedisNode {
  host: string;
  port: number;
}

interface Credentials {
  username?: string;
  password?: string;
}

export type RedisTarget =
  | { kind: 'server'; url: string }
  | ({ kind: 'cluster'; nodes: RedisNode[]; tls: boolean } & Credentials)
  | ({
      kind: 'sentinel';
      sentinels: RedisNode[];
      masterName: string;
      db: number;
      tls: boolean;
      sentinelUsername?: string;
      sentinelPassword?: string;
    } & Credentials);

const FORMS =
  'redis://host:port, rediss://…, redis+cluster://host:port,host:port or redis+sentinel://host:port,host:port/master';

const DEFAULT_PORT = 6379;
const DEFAULT_SENTINEL_PORT = 26379;

/** Throws an Error saying what is wrong with the URL (without the URL) when it is no valid form. */
export function parseRedisUrl(text: string): RedisTarget {
  const schemeEnd = text.indexOf('://');
  const scheme = schemeEnd === -1 ? '' : text.slice(0, schemeEnd).toLowerCase();
  const [base, mode] = scheme.split('+', 2);
  if (base !== 'redis' && base !== 'rediss') throw new Error(`must be one of ${FORMS}`);
  const tls = base === 'rediss';
  if (mode === undefined) return server(text);
  const rest = text.slice(schemeEnd + 3);
  if (mode === 'cluster') return cluster(rest, tls);
  if (mode === 'sentinel') return sentinel(rest, tls);
  throw new Error(`has an unknown scheme "${scheme}:"; use one of ${FORMS}`);
}

function server(text: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`is not a valid URL; use one of ${FORMS}`);
  }
  if (url.hostname === '') throw new Error('names no host');
  return { kind: 'server', url: text };
}

function cluster(rest: string, tls: boolean): RedisTarget {
  const parts = split(rest);
  if (parts.path !== '' && parts.path !== '/')
    throw new Error('of a cluster takes no path: a cluster has only database 0');
  if (parts.query !== '') throw new Error('of a cluster takes no query');
  return {
    kind: 'cluster',
    nodes: hosts(parts.hosts, DEFAULT_PORT),
    tls,
    ...credentials(parts.userinfo),
  };
}

function sentinel(rest: string, tls: boolean): RedisTarget {
  const parts = split(rest);
  const [masterName = '', db = '0', ...extra] = parts.path.replace(/^\//, '').split('/');
  if (masterName === '')
    throw new Error('of Sentinel must name the master after the hosts: …/mymaster');
  if (extra.length > 0 || !/^\d{1,2}$/.test(db))
    throw new Error('of Sentinel takes the master name and at most a database number as path');
  const query = new URLSearchParams(parts.query);
  const unknown = [...query.keys()].filter(
    (k) => k !== 'sentinelUsername' && k !== 'sentinelPassword',
  );
  if (unknown.length > 0)
    throw new Error(
      `of Sentinel takes only sentinelUsername and sentinelPassword as query, not ${unknown.join(', ')}`,
    );
  const sentinelUsername = query.get('sentinelUsername');
  const sentinelPassword = query.get('sentinelPassword');
  return {
    kind: 'sentinel',
    sentinels: hosts(parts.hosts, DEFAULT_SENTINEL_PORT),
    masterName: decode(masterName, 'master name'),
    db: Number(db),
    tls,
    ...credentials(parts.userinfo),
    ...(sentinelUsername ? { sentinelUsername } : {}),
    ...(sentinelPassword ? { sentinelPassword } : {}),
  };
}

/** `[userinfo@]hosts[/path][?query]`, where `@` may also appear in a password. */
function split(rest: string) {
  const queryAt = rest.indexOf('?');
  const query = queryAt === -1 ? '' : rest.slice(queryAt + 1);
  const beforeQuery = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const at = beforeQuery.lastIndexOf('@');
  const userinfo = at === -1 ? '' : beforeQuery.slice(0, at);
  const afterUser = beforeQuery.slice(at + 1);
  const slash = afterUser.indexOf('/');
  return {
    userinfo,
    hosts: slash === -1 ? afterUser : afterUser.slice(0, slash),
    path: slash === -1 ? '' : afterUser.slice(slash),
    query,
  };
}

function hosts(list: string, defaultPort: number): RedisNode[] {
  if (list === '') throw new Error('names no host');
  return list.split(',').map((entry) => {
    // `[::1]:7000`: an IPv6 address in brackets, as in any URL.
    const bracket = entry.startsWith('[') ? entry.indexOf(']') : -1;
    if (entry.startsWith('[') && bracket === -1)
      throw new Error('has an IPv6 address without its closing bracket');
    const colon = entry.indexOf(':', bracket + 1);
    const host = colon === -1 ? entry : entry.slice(0, colon);
    const portText = colon === -1 ? '' : entry.slice(colon + 1);
    const port = portText === '' ? defaultPort : Number(portText);
    if (host === '' || host === '[]') throw new Error('has an empty host in its host list');
    if (!/^\d{1,5}$/.test(portText || '0') || port < 1 || port > 65535)
      throw new Error(`has a bad port "${portText}" in its host list`);
    return { host: bracket === -1 ? host : host.slice(1, -1), port };
  });
}

function credentials(userinfo: string): Credentials {
  if (userinfo === '') return {};
  const colon = userinfo.indexOf(':');
  const username = decode(colon === -1 ? userinfo : userinfo.slice(0, colon), 'user name');
  const password = colon === -1 ? '' : decode(userinfo.slice(colon + 1), 'password');
  // `redis://secret@host` means a password alone, as ioredis reads the one-server form.
  if (colon === -1) return { password: username };
  return { ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Error(`has a badly percent-encoded ${what}`);
  }
}
