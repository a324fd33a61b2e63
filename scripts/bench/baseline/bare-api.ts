/**
 * Baseline for the write and read paths: Express, pg and a BullMQ queue with nothing else (no
 * auth, no validation library, no rate limit, no logging). `POST /jobs` inserts and enqueues and,
 * unless asked to answer at once, waits for the job through QueueEvents; `GET /jobs/:id` is the
 * primary-key select; `GET /jobs` is the same count-plus-page query the service's list runs.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import multer from 'multer';
import pg from 'pg';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { ACCOUNT, DDL, env, QUEUE } from './bare-env.ts';

const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 10 });
await pool.query(DDL);
const connection = new Redis(env.redisUrl, { maxRetriesPerRequest: null });
const queue = new Queue(QUEUE, { connection, prefix: env.prefix });
const events = new QueueEvents(QUEUE, {
  connection: new Redis(env.redisUrl, { maxRetriesPerRequest: null }),
  prefix: env.prefix,
});
await events.waitUntilReady();

const app = express();
app.use(express.json());

app.post('/jobs', async (req, res) => {
  const id = randomUUID();
  const { source } = req.body as { source?: unknown };
  if (typeof source !== 'string') {
    res.status(422).json({ message: 'source must be a string' });
    return;
  }
  await pool.query(
    `insert into bare_jobs (id, account_id, status, source) values ($1, $2, 'pending', $3)`,
    [id, ACCOUNT, source],
  );
  const job = await queue.add(
    'extract',
    { id },
    { jobId: id, attempts: 3, removeOnComplete: { count: 10_000 }, removeOnFail: true },
  );
  if (req.get('prefer') === 'respond-async') {
    res.status(202).json({ id, status: 'pending' });
    return;
  }
  await job.waitUntilFinished(events, 60_000);
  const { rows } = await pool.query('select * from bare_jobs where id = $1 and account_id = $2', [
    id,
    ACCOUNT,
  ]);
  res.json(rows[0]);
});

// Uploads the way the service stores them by default: the bytes in PostgreSQL with the row.
const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 50 * 2 ** 20 } });
app.post('/uploads', upload.single('source'), async (req, res) => {
  if (!req.file) {
    res.status(422).json({ message: 'source file missing' });
    return;
  }
  const id = randomUUID();
  await pool.query(
    `insert into bare_jobs (id, account_id, status, source, upload) values ($1, $2, 'pending', $3, $4)`,
    [id, ACCOUNT, req.file.originalname, req.file.buffer],
  );
  res.status(202).json({ id, status: 'pending' });
});

app.get('/jobs/:id', async (req, res) => {
  const { rows } = await pool.query('select * from bare_jobs where id = $1 and account_id = $2', [
    req.params.id,
    ACCOUNT,
  ]);
  if (rows.length === 0) res.status(404).json({ message: 'not found' });
  else res.json(rows[0]);
});

app.get('/jobs', async (req, res) => {
  const limit = Math.min(100, Number(req.query.limit ?? 10));
  const [total, page] = [
    await pool.query('select count(*)::int as n from bare_jobs where account_id = $1', [ACCOUNT]),
    await pool.query(
      'select * from bare_jobs where account_id = $1 order by created_at desc, id desc limit $2',
      [ACCOUNT, limit],
    ),
  ];
  res.json({ data: page.rows, total: (total.rows[0] as { n: number }).n });
});

const server = app.listen(env.port, '127.0.0.1', () => {
  console.log(`bare API listening on ${JSON.stringify(server.address())}`);
});
process.once('SIGTERM', () => {
  server.close();
  void Promise.all([queue.close(), events.close(), pool.end()]).then(() => process.exit(0));
});
