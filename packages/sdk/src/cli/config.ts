import { lstat, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isLoopbackHost } from '../loopback.ts';

/** Where the service is and the key to use. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
}

export interface ConnectionEnv {
  XT_BASE_URL?: string | undefined;
  XT_API_KEY?: string | undefined;
  /** `npm start`'s data directory, when it is not `.data` in the checkout. */
  DATA_DIR?: string | undefined;
}

/** The connection settings from the environment, for `xt` and `xt-mcp` (the client reads none). */
export function connectionEnv(env: NodeJS.ProcessEnv = process.env): ConnectionEnv {
  const pick = (name: string) =>
    env[name] && env[name].trim() !== '' ? env[name].trim() : undefined;
  return {
    XT_BASE_URL: pick('XT_BASE_URL'),
    XT_API_KEY: pick('XT_API_KEY'),
    DATA_DIR: pick('DATA_DIR'),
  };
}

const LOCAL_DEFAULT = 'http://127.0.0.1:3000';

/**
 * `XT_BASE_URL` and `XT_API_KEY` when set. Otherwise the development key a local `npm start`
 * saved (`.data/dev-api-key.txt`, found from `cwd` upwards in a `.data` of the user's own that
 * no one else may write, or under `DATA_DIR`, which the user named), and the
 * address that `npm start` recorded in `.data/stack.json` while it runs.
 *
 * That folder may come with a checkout someone else wrote, so what it says is believed only
 * as far as it cannot hurt: its address only if it is this machine's loopback, and only for its
 * own development key. A key from the environment goes to `XT_BASE_URL` or the local default,
 * never to an address a file chose.
 */
export async function resolveConnection(env: ConnectionEnv, cwd: string): Promise<Connection> {
  if (env.XT_API_KEY) return { baseUrl: env.XT_BASE_URL ?? LOCAL_DEFAULT, apiKey: env.XT_API_KEY };
  const dataDir = env.DATA_DIR ? path.resolve(cwd, env.DATA_DIR) : await findDataDir(cwd);
  const apiKey = dataDir ? await readDevKey(dataDir) : undefined;
  if (!dataDir || !apiKey) {
    const looked = env.DATA_DIR
      ? `DATA_DIR is ${path.resolve(cwd, env.DATA_DIR)}, which holds no dev-api-key.txt`
      : `no .data/dev-api-key.txt from ${path.resolve(cwd)} upwards in a folder of yours that no one else can write`;
    throw new Error(
      'No API key: set XT_API_KEY (and XT_BASE_URL), or run inside a checkout where `npm start` ' +
        `saved its development key, or set DATA_DIR to that npm start's data folder (${looked}).`,
    );
  }
  const baseUrl = env.XT_BASE_URL ?? (await runningApiUrl(dataDir));
  return { baseUrl: baseUrl ?? LOCAL_DEFAULT, apiKey };
}

async function findDataDir(from: string): Promise<string | undefined> {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.data');
    if ((await isOwnFolder(candidate)) && (await readDevKey(candidate)) !== undefined)
      return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export interface Owner {
  uid: number;
  gid: number;
}

/**
 * Whether a folder, as `stat` describes it, is the user's alone: theirs, writable by no other
 * user, and by its group only when that group is the user's own (one per user, as most systems
 * make it). A `.data` found upwards may lie in a shared folder above the user's, planted there
 * with a stack.json naming the planter's local server: it would receive the user's files.
 */
export function belongsTo(info: { uid: number; gid: number; mode: number }, user: Owner): boolean {
  if (info.uid !== user.uid || (info.mode & 0o002) !== 0) return false;
  return (info.mode & 0o020) === 0 || info.gid === user.gid;
}

async function isOwnFolder(dir: string): Promise<boolean> {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  // Windows has no owners to compare; its folders are the user's profile's by default.
  if (uid === undefined || gid === undefined) return true;
  try {
    // The link too: a link the user did not make may point at a folder they own.
    const [link, folder] = await Promise.all([lstat(dir), stat(dir)]);
    return folder.isDirectory() && link.uid === uid && belongsTo(folder, { uid, gid });
  } catch {
    return false;
  }
}

async function readDevKey(dataDir: string): Promise<string | undefined> {
  try {
    const key = (await readFile(path.join(dataDir, 'dev-api-key.txt'), 'utf8')).trim();
    return key === '' ? undefined : key;
  } catch {
    return undefined;
  }
}

/**
 * The loopback API address of the `npm start` that wrote stack.json, if that process still
 * runs. `process.kill(0, 0)` signals the caller's own process group and a negative pid a whole
 * group, so both would "succeed": only a positive pid names one process.
 */
async function runningApiUrl(dataDir: string): Promise<string | undefined> {
  try {
    const stack = JSON.parse(await readFile(path.join(dataDir, 'stack.json'), 'utf8')) as {
      pid?: unknown;
      apiUrl?: unknown;
    };
    if (!Number.isSafeInteger(stack.pid) || (stack.pid as number) <= 0) return undefined;
    if (typeof stack.apiUrl !== 'string' || !URL.canParse(stack.apiUrl)) return undefined;
    const url = new URL(stack.apiUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.username || url.password || !isLoopbackHost(url.hostname)) return undefined;
    process.kill(stack.pid as number, 0);
    return url.origin;
  } catch {
    return undefined;
  }
}
