/**
 * Starts the real API in-process on a cloned database and a private queue prefix, with keys for
 * two accounts, and offers a small JSON client. The API's own integration tests use it, and the
 * cross-process tests in tests/ through `@xt/api/testing`. It sits outside src/ because the
 * service never runs it.
 */
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import {
  createTestDatabase,
  startAppProcess,
  testRedisUrl,
  uniquePrefix,
  type AppProcess,
  type TestDatabase,
} from '@xt/testkit';
import { loadConfig, type ApiConfig } from '../src/config.ts';
import { createLogger } from '@xt/runtime';
import { startApi, type RunningApi } from '../src/server.ts';
import { createResponseChecker, type CheckedResponse } from './response-check.ts';

let checkResponses: ((res: CheckedResponse) => string[]) | undefined;

/**
 * From now on in this test file, every answer a test API gives through `request` is checked
 * against the OpenAPI document (route, status, required headers, body), and a mismatch fails
 * the request: what the document promises is what the integration tests see.
 */
export function checkResponsesAgainstOpenApi(): void {
  checkResponses ??= createResponseChecker();
}

export interface TestApi {
  url: string;
  database: TestDatabase;
  /** Every Redis key's prefix, as the API uses it: `{api…}`, in braces (a hash tag). */
  prefix: string;
  config: ApiConfig;
  keys: { write: string; read: string; other: string };
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  key?: string | null;
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  /** Send to another API process (a replica) instead of this one. */
  via?: string;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function startTestApi(
  env: Record<string, string> = {},
  /** Reach the database through something in front of it (a pooler); migrations go direct. */
  through?: (databaseUrl: string) => string,
): Promise<TestApi> {
  const database = await createTestDatabase();
  const prefix = uniquePrefix('api');
  const config = loadConfig({
    DATABASE_URL: through ? through(database.url) : database.url,
    ...(through ? { DATABASE_DIRECT_URL: database.url } : {}),
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SHUTDOWN_GRACE_SECONDS: '0',
    // Tests send the same few sources again and again and look at what reached the model:
    // nothing is reused unless a test asks (docs/reuse.md; tests/e2e/reuse.test.ts).
    CACHE_MAX_AGE_SECONDS: '0',
    ...env,
  });
  const api: RunningApi = await startApi(config, createLogger('silent', 'api'));
  const handle = createDb(database.url, { max: 2 });
  const write = await createKey(handle.db, { accountName: 'acme', scope: 'write' });
  const read = await createKey(handle.db, { accountName: 'acme', scope: 'read' });
  const other = await createKey(handle.db, { accountName: 'globex', scope: 'write' });
  await handle.close();

  const request = async (
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? write.key : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await fetch(`${options.via ?? api.url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (e.g. /metrics): tests read `text` instead.
    }
    const problems = checkResponses?.({
      method,
      path,
      status: res.status,
      headers: res.headers,
      body: parsed,
      requestJson: options.json,
    });
    if (problems && problems.length > 0)
      throw new Error(`the answer differs from the OpenAPI document:\n${problems.join('\n')}`);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    url: api.url,
    database,
    prefix: config.QUEUE_PREFIX,
    config,
    keys: { write: write.key, read: read.key, other: other.key },
    request,
    async close() {
      await api.close();
      await database.drop();
    },
  };
}

/**
 * A real worker process on the test API's database and queue prefix, calling the model at
 * `modelUrl`, with fast retries; `env` adds or overrides settings.
 */
export function startTestWorker(
  api: TestApi,
  modelUrl: string,
  env: Record<string, string> = {},
): Promise<AppProcess> {
  return startAppProcess(
    'apps/worker/src/main.ts',
    {
      DATABASE_URL: api.database.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: api.prefix,
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: modelUrl,
      // The stand-in imitates OpenAI here unless a test gives it another dialect: its answers
      // are scripted per test, and a probe would read them as a server that enforces nothing.
      // The dialect tests configure MODEL_ENDPOINTS (probed), or set this to `auto`.
      MODEL_ENDPOINT_KIND: 'openai',
      LOG_LEVEL: 'info',
      JOB_BACKOFF_MS: '50',
      MODEL_MAX_RETRIES: '0',
      WORKER_NAME: 'test-worker',
      // Several test workers run at once on this host: no fixed ops port unless a test asks.
      WORKER_METRICS_PORT: '0',
      ...env,
    },
    'worker started',
  );
}

/** Another API process on the same database, Redis and queue prefix, as behind a load balancer. */
export async function startApiReplica(
  api: TestApi,
  env: Record<string, string> = {},
): Promise<{ url: string; process: AppProcess; close(): Promise<void> }> {
  const proc = await startAppProcess(
    'apps/api/src/main.ts',
    {
      DATABASE_URL: api.config.DATABASE_URL,
      REDIS_URL: api.config.REDIS_URL,
      QUEUE_PREFIX: api.config.QUEUE_PREFIX,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      CACHE_MAX_AGE_SECONDS: api.config.CACHE_MAX_AGE_SECONDS.toString(),
      ...env,
    },
    'API listening',
  );
  const url = /API listening on (http:\/\/[^"\s]+)/.exec(proc.output())?.[1];
  if (!url) throw new Error(`replica did not say where it listens:\n${proc.output()}`);
  return { url, process: proc, close: async () => void (await proc.stop()) };
}
