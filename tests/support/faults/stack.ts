/**
 * Everything a fault test runs against, all of it owned by the test: its own PostgreSQL and
 * redis-server (which it stops, kills, pauses and restarts), the model stand-in, one API process
 * on a fixed port and worker processes. Helpers to read the outcome straight from the database.
 */
import { createKey } from '@xt/accounts';
import { createDb, runMigrations } from '@xt/db';
import { freePort } from '@xt/embedded';
import { startModelStandIn, waitFor, type ModelStandIn } from '@xt/testkit';
import {
  logProblems,
  ServiceProcess,
  startControlledPostgres,
  startControlledRedis,
  type ControlledServer,
  type LogProblems,
} from '@xt/testkit/faults';
import pg from 'pg';

export interface FaultStack {
  postgres: ControlledServer;
  redis: ControlledServer;
  model: ModelStandIn;
  api: ServiceProcess;
  apiUrl: string;
  workers: ServiceProcess[];
  apiKey: string;
  /** Starts one more worker on the same settings (`name` is its WORKER_NAME). */
  addWorker(name: string, env?: Record<string, string>): Promise<ServiceProcess>;
  /** A fresh schema, so each scenario counts only its own extractions. */
  createSchema(name: string): Promise<string>;
  /** The rows of one schema's extractions. */
  rows(schemaId: string): Promise<ExtractionRow[]>;
  /** Waits until every extraction of the schema is final; resolves with the rows. */
  allFinal(schemaId: string, timeoutMs: number): Promise<ExtractionRow[]>;
  /** Processes that ended without the test asking. */
  unexpectedExits(): string[];
  /** What each process logged since the last `markLogs()`. */
  logs(): { name: string; problems: LogProblems }[];
  /** Starts a new stretch of logs for `logs()` (one per scenario). */
  markLogs(): void;
  close(): Promise<void>;
}

export interface ExtractionRow {
  id: string;
  status: string;
  charged: boolean;
  attempts: number;
  source: string;
  errorCode: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/**
 * Worker settings for fault tests: recovery paths shortened (in proportion to production's) so
 * a scenario takes seconds, not minutes. docs/operations.md gives production's figures. The lock
 * stays above the outages the tests cause, as production's 20 s is above a restart's.
 */
export const FAST_RECOVERY = {
  LOCK_DURATION_MS: '8000',
  STALLED_INTERVAL_MS: '2000',
  RECONCILE_INTERVAL_MS: '2000',
  RECONCILE_AFTER_MS: '3000',
  RECONCILE_STALE_MS: '6000',
  JOB_BACKOFF_MS: '1000',
  JOB_ATTEMPTS: '6',
  MODEL_MAX_RETRIES: '0',
  WORKER_SHUTDOWN_GRACE_SECONDS: '10',
  WEBHOOK_CONCURRENCY: '0',
};

/** Production's defaults for the same settings (only what FAST_RECOVERY changes for speed). */
const PRODUCTION_RECOVERY = { MODEL_MAX_RETRIES: '0', WEBHOOK_CONCURRENCY: '0' };

export interface FaultStackOptions {
  workers?: number;
  /** `production` keeps the shipped lock, stalled-check, reconciler and backoff timings. */
  recovery?: 'fast' | 'production';
}

export async function startFaultStack(options: FaultStackOptions = {}): Promise<FaultStack> {
  const recovery = options.recovery === 'production' ? PRODUCTION_RECOVERY : FAST_RECOVERY;
  const jobPolicy: Record<string, string> =
    options.recovery === 'production'
      ? {}
      : { JOB_ATTEMPTS: FAST_RECOVERY.JOB_ATTEMPTS, JOB_BACKOFF_MS: FAST_RECOVERY.JOB_BACKOFF_MS };
  const postgres = await startControlledPostgres();
  const redis = await startControlledRedis();
  await runMigrations(postgres.url);
  const model = await startModelStandIn();
  const admin = createDb(postgres.url, { max: 2 });
  const apiKey = (await createKey(admin.db, { accountName: 'faults', scope: 'write' })).key;
  await admin.close();
  const reader = new pg.Pool({ connectionString: postgres.url, max: 2 });
  // The pool must outlive PostgreSQL restarts: a dropped idle connection is not a test failure.
  reader.on('error', () => undefined);

  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const common = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, QUEUE_PREFIX: 'faults' };
  const api = await ServiceProcess.start(
    'api',
    'apps/api/src/main.ts',
    {
      ...common,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_SECONDS: '1',
      RATE_LIMIT_MAX: '100000',
      // The faults submit the same few sources again and again and count the work done:
      // nothing is reused here (docs/reuse.md has its own tests).
      CACHE_MAX_AGE_SECONDS: '0',
      ...jobPolicy,
    },
    'API listening',
  );
  const workers: ServiceProcess[] = [];
  const addWorker = async (name: string, env: Record<string, string> = {}) => {
    const worker = await ServiceProcess.start(
      name,
      'apps/worker/src/main.ts',
      {
        ...common,
        ...recovery,
        LOG_LEVEL: 'info',
        WORKER_NAME: name,
        // Several workers share this host: no fixed metrics port to collide on.
        WORKER_METRICS_PORT: '0',
        OPENAI_API_KEY: 'sk-test-key',
        OPENAI_BASE_URL: model.url,
        // the stand-in imitates OpenAI (docs/models.md: MODEL_ENDPOINT_KIND)
        MODEL_ENDPOINT_KIND: 'openai',
        ...env,
      },
      'worker started',
    );
    workers.push(worker);
    return worker;
  };
  await Promise.all(
    Array.from({ length: options.workers ?? 2 }, (_, i) => addWorker(`worker-${i + 1}`)),
  );

  const marks = new Map<ServiceProcess, number>();
  const rows = async (schemaId: string): Promise<ExtractionRow[]> => {
    const result = await reader.query<ExtractionRow>(
      `select id, status, charged, attempts, source, error_code as "errorCode",
              created_at as "createdAt", finished_at as "finishedAt"
         from extractions where schema_id = $1 order by created_at`,
      [schemaId],
    );
    return result.rows;
  };

  return {
    postgres,
    redis,
    model,
    api,
    apiUrl,
    workers,
    apiKey,
    addWorker,
    rows,
    async createSchema(name) {
      const res = await fetch(`${apiUrl}/v1/schemas`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name,
          structure: {
            type: 'object',
            properties: { items: { type: 'string' }, total: { type: 'number' } },
          },
        }),
      });
      const body = (await res.json()) as { data: { id: string } };
      return body.data.id;
    },
    allFinal(schemaId, timeoutMs) {
      return waitFor(
        async () => {
          const all = await rows(schemaId);
          return all.every((r) => r.status === 'completed' || r.status === 'failed') && all;
        },
        timeoutMs,
        200,
      );
    },
    unexpectedExits: () =>
      [api, ...workers].map((p) => p.unexpectedExit()).filter((e) => e !== undefined),
    logs: () =>
      [api, ...workers].map((p) => ({
        name: p.name,
        problems: logProblems(p.output().slice(marks.get(p) ?? 0)),
      })),
    markLogs() {
      for (const p of [api, ...workers]) marks.set(p, p.output().length);
    },
    async close() {
      await Promise.all([api, ...workers].map((p) => p.stop()));
      await reader.end().catch(() => undefined);
      await model.close();
      await redis.close();
      await postgres.close();
    },
  };
}
