import { z } from 'zod';
import { LOG_FORMATS, LOG_LEVELS } from './env.ts';
import { parseRedisUrl } from './redis-url.ts';

/*
 * The settings the API and the worker both read, declared once so that a variable means the
 * same thing, with the same default and bounds, in every process (the README's configuration
 * table lists them once too). Each app's config module spreads the groups it needs into its
 * own schema and adds its own settings beside them.
 */

const MiB = 1024 * 1024;

/** One server, a cluster or Sentinel: the forms are in redis-url.ts and README's table. */
export function redisUrl() {
  return z.string().superRefine((value, ctx) => {
    try {
      parseRedisUrl(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  });
}

/**
 * Every Redis key the service writes starts with the prefix in braces, `{xt}:`: a Redis Cluster
 * then puts them all in one hash slot, as BullMQ's scripts (several keys of a queue each) and
 * any other multi-key command need. Processes with the same prefix share work. Braces may be
 * written or left out (`xt` and `{xt}` are the same prefix), so a value read back from a
 * config passes through another process unchanged.
 */
function queuePrefix() {
  return z
    .string()
    .regex(/^(?:[\w-]+|\{[\w-]+\})$/, 'must be letters, digits, _ and -, optionally in braces')
    .default('xt')
    .transform((p) => (p.startsWith('{') ? p : `{${p}}`));
}

/** Where the process's dependencies are and how it logs. */
export const baseConfig = {
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  REDIS_URL: redisUrl(),
  QUEUE_PREFIX: queuePrefix(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  // PostgreSQL itself, for what needs a session of its own, which a transaction-mode PgBouncer
  // cannot give: the migrations' advisory lock and LISTEN. Default: DATABASE_URL.
  DATABASE_DIRECT_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  // Named server-side prepared statements for the hottest queries. `false` sends them unnamed
  // (parsed on every execution), as PgBouncer before 1.21 in transaction mode needs.
  DB_PREPARED_STATEMENTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  // Unset: coloured lines at a terminal outside production, JSON otherwise (docs/logging.md).
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
  NODE_ENV: z.string().optional(),
  // Where uploaded files are kept (docs/uploads.md): PostgreSQL, or an S3-compatible object
  // store reached with the AWS SDK's standard credentials (environment, profile, role).
  BLOB_STORE: z.enum(['postgres', 's3']).default('postgres'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  S3_PREFIX: z.string().default('uploads/'),
  // `Authorization: Bearer <token>` on /metrics of the API and every worker; unset leaves it open.
  METRICS_TOKEN: z.string().min(1).optional(),
};

/**
 * How extraction jobs are retried: the API enqueues with it and the worker decides with it
 * whether an attempt was the last, so both must read the same numbers.
 */
export const jobPolicyConfig = {
  JOB_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(4),
  // First retry delay; it doubles per attempt (5, 10, 20 s: longer than an ordinary restart of
  // a dependency). A provider's Retry-After wins when it asks for longer.
  JOB_BACKOFF_MS: z.coerce.number().int().min(0).default(5_000),
};

/** What a source may be: checked by the API when it arrives and by the worker when it is read. */
export const sourceLimitsConfig = {
  // Places sources may come from despite being private (docs/api.md); empty: none.
  SOURCE_ALLOWLIST: z.string().default(''),
  // Places webhook endpoints may point to despite being private (docs/webhooks.md); empty.
  WEBHOOK_ALLOWLIST: z.string().default(''),
  // Largest uploaded file (a file part or a data: URL), in bytes: the API answers 413 past it,
  // and the worker refuses to read a stored file larger than this.
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * MiB),
};

/**
 * Reuse of finished answers (docs/reuse.md): the API looks for one at create (typed text and
 * uploads) and the worker after fetching (URLs), so both must read the same settings.
 */
export const reuseConfig = {
  // How old a finished answer may be and still be reused, when the request does not say.
  CACHE_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(604_800),
  // Mixed into every reuse key. Change it after changing a setting that alters what reaches
  // the model without a release (MODEL_MAP, PDF_MODE, page limits): older answers then stop
  // being reused, as after a release that changes the pipeline.
  CACHE_NAMESPACE: z.string().max(200).default(''),
};
