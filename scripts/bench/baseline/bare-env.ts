/**
 * The bare pipeline's settings and table: what a team would write by hand instead of using the
 * service, kept to the same steps (insert a row, add a BullMQ job; a worker moves the row to
 * processing, calls the model, stores the output) so the benchmark compares like with like.
 */
export const env = {
  databaseUrl: process.env.DATABASE_URL ?? '',
  redisUrl: process.env.REDIS_URL ?? '',
  prefix: process.env.QUEUE_PREFIX ?? 'bare',
  port: Number(process.env.PORT ?? 0),
  modelUrl: process.env.OPENAI_BASE_URL ?? '',
  concurrency: Number(process.env.WORKER_CONCURRENCY ?? 100),
};

export const QUEUE = 'bare-extract';
/** One account, as every benchmark request uses one key. */
export const ACCOUNT = '00000000-0000-4000-8000-000000000001';

export const DDL = `
create table if not exists bare_jobs (
  id uuid primary key,
  account_id uuid not null,
  status text not null,
  source text not null,
  output jsonb,
  upload bytea,
  total_tokens integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists bare_jobs_account_created on bare_jobs (account_id, created_at desc, id desc);
`;

export const OUTPUT_SCHEMA = {
  type: 'object',
  properties: { vendor: { type: 'string' }, total: { type: 'number' } },
  required: ['vendor', 'total'],
  additionalProperties: false,
};
