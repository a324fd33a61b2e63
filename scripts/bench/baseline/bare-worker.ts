/**
 * Baseline worker: a BullMQ Worker that moves the row to processing, calls the model with the
 * openai SDK (same stand-in, same structured-output request shape) and stores the output.
 */
import OpenAI from 'openai';
import pg from 'pg';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { env, OUTPUT_SCHEMA, QUEUE } from './bare-env.ts';

const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 10 });
const openai = new OpenAI({ apiKey: 'bench', baseURL: env.modelUrl, maxRetries: 1 });

const worker = new Worker(
  QUEUE,
  async (job) => {
    const { id } = job.data as { id: string };
    const claimed = await pool.query<{ source: string }>(
      `update bare_jobs set status = 'processing', updated_at = now()
        where id = $1 and status = 'pending' returning source`,
      [id],
    );
    const row = claimed.rows[0];
    if (!row) return;
    const completion = await openai.chat.completions.create({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Extract the data described by the JSON schema.' },
        { role: 'user', content: row.source },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'extraction', strict: true, schema: OUTPUT_SCHEMA },
      },
    });
    const output = JSON.parse(completion.choices[0]?.message.content ?? 'null') as unknown;
    await pool.query(
      `update bare_jobs set status = 'completed', output = $2, total_tokens = $3, updated_at = now()
        where id = $1 and status = 'processing'`,
      [id, JSON.stringify(output), completion.usage?.total_tokens ?? 0],
    );
  },
  {
    connection: new Redis(env.redisUrl, { maxRetriesPerRequest: null }),
    prefix: env.prefix,
    concurrency: env.concurrency,
  },
);
await worker.waitUntilReady();
console.log('bare worker started');
process.once('SIGTERM', () => {
  void worker.close().then(() => pool.end().then(() => process.exit(0)));
});
