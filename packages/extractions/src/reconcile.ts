import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import type { RedisConnection } from '@xt/queue';
import type { Logger } from 'pino';
import { extractions, isDatabaseUnavailable, type Db } from '@xt/db';
import { isRedisUnavailable, type ExtractionJobPolicy } from '@xt/queue';
import { startPeriodic, type Periodic } from '@xt/runtime';
import { enqueueExtraction } from './enqueue.ts';
import { jobPriority, priorityOfUnfinished } from './unfinished.ts';

const BATCH = 500;

/*
 * The lock that keeps reconcilers from running at once lapses this long after its last renewal.
 * A pass cut short by a Redis outage cannot release it, and Redis restarted from its AOF keeps
 * it: a long lock (it was 60 s) then holds every reconciler off long after Redis is back, and
 * with it the rows whose enqueue the outage lost. So it is short and renewed while a pass runs.
 */
const LOCK_MS = 10_000;
const RENEW_AFTER_MS = LOCK_MS / 3;
const RENEW =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/** Job states in which the job will still run (or is running): nothing to reconcile. */
const LIVE_JOB_STATES = new Set([
  'waiting',
  'delayed',
  'prioritized',
  'waiting-children',
  'active',
]);

interface ReconcilerDeps {
  db: Db;
  queue: Queue;
  redis: RedisConnection;
  prefix: string;
  policy: ExtractionJobPolicy;
  afterMs: number;
  staleProcessingMs: number;
  logger: Logger;
}

/**
 * Runs `work` only while holding the Redis lock `key` (else answers `busy`), then frees it.
 * `work` calls `stillHeld()` between steps: it renews the lock when due and answers false once
 * the lock is lost, so the pass stops.
 */
async function withRedisLock<T>(
  redis: RedisConnection,
  key: string,
  work: (stillHeld: () => Promise<boolean>) => Promise<T>,
  busy: T,
): Promise<T> {
  const token = randomUUID();
  const locked = await redis.set(key, token, 'PX', LOCK_MS, 'NX');
  if (!locked) return busy;
  let renewedAt = Date.now();
  const stillHeld = async () => {
    if (Date.now() - renewedAt <= RENEW_AFTER_MS) return true;
    if (!(await redis.eval(RENEW, 1, key, token, LOCK_MS))) return false;
    renewedAt = Date.now();
    return true;
  };
  try {
    return await work(stillHeld);
  } finally {
    // Release only our own lock.
    await redis.eval(
      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
      1,
      key,
      token,
    );
  }
}

/** Unfinished rows old enough that no request can still be enqueueing them, oldest first. */
function findCandidates(deps: ReconcilerDeps) {
  return deps.db
    .select({
      id: extractions.id,
      accountId: extractions.accountId,
      requestId: extractions.requestId,
      priority: extractions.priority,
    })
    .from(extractions)
    .where(
      and(
        inArray(extractions.status, ['pending', 'processing']),
        lt(extractions.createdAt, sql`now() - ${`${deps.afterMs} milliseconds`}::interval`),
      ),
    )
    .orderBy(extractions.createdAt)
    .limit(BATCH);
}

type Candidate = Awaited<ReturnType<typeof findCandidates>>[number];

async function currentState(db: Db, id: string) {
  const [row] = await db
    .select({ status: extractions.status, updatedAt: extractions.updatedAt })
    .from(extractions)
    .where(eq(extractions.id, id));
  return row;
}

/**
 * Gives the row a new job when its own is gone or ended without finishing it. Answers the
 * state the old job was in when it did, undefined when the row needed nothing. `priority`
 * reads the fair-scheduling rank for the row's account (jobPriority puts a batch row after it).
 */
async function reconcileRow(
  deps: ReconcilerDeps,
  row: Candidate,
  priority: (accountId: string) => Promise<number>,
): Promise<string | undefined> {
  const job = await deps.queue.getJob(row.id);
  const state = job ? await job.getState() : 'missing';
  if (LIVE_JOB_STATES.has(state)) return undefined;
  // The row is read again now that the job is known to have ended: a job finishes after
  // writing its row, so a job that ended during the pass left a final row the candidate query
  // could not see, and every job completing during a pass over a backlog would be enqueued
  // again (harmless, but a job and a warning each).
  const current = await currentState(deps.db, row.id);
  if (current === undefined || current.status === 'completed' || current.status === 'failed')
    return undefined;
  // A processing row whose job just ended may still be writing its outcome: give it time.
  const stale = Date.now() - current.updatedAt.getTime() > deps.staleProcessingMs;
  if (current.status === 'processing' && state !== 'missing' && !stale) return undefined;
  // The job is gone, or finished without the row reaching a final state (for example the
  // database was down when the worker tried to write it): give the extraction a new job.
  if (job) await job.remove().catch(() => undefined);
  if (current.status === 'processing')
    await deps.db
      .update(extractions)
      .set({ status: 'pending', updatedAt: sql`now()` })
      .where(and(eq(extractions.id, row.id), eq(extractions.status, 'processing')));
  await enqueueExtraction(
    deps.queue,
    { extractionId: row.id, ...(row.requestId ? { requestId: row.requestId } : {}) },
    { ...deps.policy, priority: jobPriority(await priority(row.accountId), row.priority) },
  );
  deps.logger.info(
    { extractionId: row.id, previousJobState: state },
    'reconciler enqueued an extraction',
  );
  return state;
}

/**
 * Makes sure every unfinished extraction has a live job. The API commits the row before it
 * enqueues, so a Redis hiccup (or a lost Redis) can leave `pending` rows with no job; and a row
 * can be left `processing` when its job is gone or ended without writing (the database was down
 * when it tried). One worker at a time does this (a Redis lock), for rows older than `afterMs`
 * so it never races a request that is still enqueueing; a `processing` row whose job is no
 * longer live is taken over once it has not changed for `staleProcessingMs`.
 */
export function createReconciler(deps: ReconcilerDeps) {
  const lockKey = `${deps.prefix}:reconciler-lock`;

  async function runOnce(): Promise<number> {
    return withRedisLock(
      deps.redis,
      lockKey,
      async (stillHeld) => {
        let requeued = 0;
        const byState: Record<string, number> = {};
        // Read once per account and pass: the rows it enqueues are unfinished, so already
        // counted, and keep their order within one priority (oldest first).
        const priorities = new Map<string, Promise<number>>();
        const priority = (accountId: string) => {
          let p = priorities.get(accountId);
          if (!p)
            priorities.set(accountId, (p = priorityOfUnfinished(deps.db, accountId, 'standard')));
          return p;
        };
        for (const row of await findCandidates(deps)) {
          if (!(await stillHeld())) break;
          const previous = await reconcileRow(deps, row, priority);
          if (previous === undefined) continue;
          requeued++;
          byState[previous] = (byState[previous] ?? 0) + 1;
        }
        // After an outage a pass may enqueue every extraction created meanwhile: one warning
        // for the pass says so, the lines per extraction stay at info.
        if (requeued > 0)
          deps.logger.warn(
            { requeued, previousJobStates: byState },
            'reconciler enqueued extractions',
          );
        return requeued;
      },
      0,
    );
  }

  return {
    runOnce,
    start(intervalMs: number): Periodic {
      return startPeriodic(runOnce, {
        name: 'reconciler',
        intervalMs,
        logger: deps.logger,
        isOutage: (err) => isDatabaseUnavailable(err) || isRedisUnavailable(err),
        outageMessage: 'cannot reach PostgreSQL or Redis; retrying every interval',
      });
    },
  };
}
