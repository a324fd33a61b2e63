/**
 * Logs and stored failure reasons never carry a client's data or a credential. A real API
 * process and a real worker process run a whole flow (a signed-in user, a webhook endpoint, a
 * completed extraction delivered to a receiver) and three PostgreSQL errors forced on purpose
 * (a failed insert in the API, a failed completion and a failed claim in the worker), each of
 * which carries the secrets in its query parameters and in PostgreSQL's own detail. Everything
 * both processes wrote, every stored failure reason (rows and BullMQ jobs) is then searched
 * for each secret.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, hashKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { EXTRACTION_QUEUE, WEBHOOK_QUEUE } from '@xt/queue';
import { startModelStandIn, waitFor, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startApiReplica, startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';

const mark = (what: string) => `${what}-${randomBytes(8).toString('hex')}`;
const secret = {
  source: mark('SOURCE'),
  metadata: mark('METADATA'),
  output: mark('OUTPUT'),
  password: mark('PASSWORD'),
  modelKey: mark('sk-model'),
};

let api: TestApi;
let replica: Awaited<ReturnType<typeof startApiReplica>>;
let worker: AppProcess;
let model: ModelStandIn;
let receiver: Server;
let sql: pg.Client;
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  const allow = { WEBHOOK_ALLOWLIST: `127.0.0.1:${port}` };
  model = await startModelStandIn({
    apiKey: secret.modelKey,
    defaultBehaviour: { output: { note: secret.output } },
  });
  // The in-process API only prepares the database and keys; it logs nothing. Every request
  // goes to the replica, a real process whose whole output is kept.
  api = await startTestApi(allow);
  replica = await startApiReplica(api, {
    ...allow,
    LOG_LEVEL: 'trace',
    JOB_ATTEMPTS: '2',
    JOB_BACKOFF_MS: '50',
  });
  worker = await startTestWorker(api, model.url, {
    ...allow,
    LOG_LEVEL: 'trace',
    OPENAI_API_KEY: secret.modelKey,
    WEBHOOK_RELAY_INTERVAL_MS: '100',
  });
  sql = new pg.Client({ connectionString: api.database.url });
  await sql.connect();
});

afterAll(async () => {
  await sql?.end();
  await worker?.stop();
  await replica?.close();
  await api?.close();
  await model?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const call = (method: string, path: string, options: Parameters<TestApi['request']>[2] = {}) =>
  api.request(method, path, { via: replica.url, ...options });

async function submit(source: string, schemaId: string) {
  return call('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source, metadata: { ref: secret.metadata } },
    headers: { prefer: 'respond-async' },
  });
}

async function statusOf(id: string): Promise<string> {
  const got = await call('GET', `/v1/extractions/${id}`);
  return got.body.data.status as string;
}

/** Every failure reason BullMQ keeps: failedReason and stack traces of every job. */
async function jobReasons(): Promise<string[]> {
  const connection = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: null });
  const reasons: string[] = [];
  for (const name of [EXTRACTION_QUEUE, WEBHOOK_QUEUE]) {
    const queue = new Queue(name, { connection, prefix: api.prefix });
    for (const job of await queue.getJobs(['failed', 'completed', 'delayed', 'wait', 'active']))
      reasons.push(job.failedReason ?? '', ...(job.stacktrace ?? []));
    await queue.close();
  }
  connection.disconnect();
  return reasons;
}

describe('logs and failure reasons', () => {
  it('never carry keys, sources, outputs, metadata, webhook secrets or passwords', async () => {
    const handle = createDb(api.database.url, { max: 1 });
    await createUser(handle.db, {
      accountName: 'acme',
      email: 'ops@example.com',
      password: secret.password,
    });
    await handle.close();
    const signIn = await fetch(`${replica.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: replica.url },
      body: JSON.stringify({ email: 'ops@example.com', password: secret.password }),
    });
    expect(signIn.status).toBe(200);

    const { port } = receiver.address() as AddressInfo;
    const hook = await call('POST', '/v1/webhooks', {
      json: { url: `http://127.0.0.1:${port}/hook`, events: ['extraction.completed'] },
    });
    expect(hook.status).toBe(201);
    const webhookSecret = hook.body.data.secret as string;
    const schema = await call('POST', '/v1/schemas', {
      json: {
        name: 'Note',
        structure: { type: 'object', properties: { note: { type: 'string' } } },
      },
    });
    const schemaId = schema.body.data.id as string;

    // A whole flow: completed, and its event (with metadata and output) delivered.
    const done = await submit(secret.source, schemaId);
    expect(done.status).toBe(202);
    await waitFor(() => received.some((b) => b.includes(secret.output)), 30_000);

    // PostgreSQL refuses the API's insert; its error carries the row's values.
    await sql.query(
      `ALTER TABLE extractions ADD CONSTRAINT forced_insert CHECK (source NOT LIKE 'FORCE-INSERT%') NOT VALID`,
    );
    const refused = await submit(`FORCE-INSERT ${secret.source}`, schemaId);
    expect(refused.status).toBe(500);

    // PostgreSQL refuses the worker's completion (carrying the output) and then its claim.
    await sql.query(
      `ALTER TABLE extractions ADD CONSTRAINT forced_complete CHECK (status <> 'completed' OR source NOT LIKE 'FORCE-COMPLETE%') NOT VALID`,
    );
    await sql.query(
      `ALTER TABLE extractions ADD CONSTRAINT forced_claim CHECK (status <> 'processing' OR source NOT LIKE 'FORCE-CLAIM%') NOT VALID`,
    );
    const uncompleted = await submit(`FORCE-COMPLETE ${secret.source}`, schemaId);
    const unclaimed = await submit(`FORCE-CLAIM ${secret.source}`, schemaId);
    await waitFor(async () => (await statusOf(uncompleted.body.data.id)) === 'failed', 30_000);
    const connection = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(EXTRACTION_QUEUE, { connection, prefix: api.prefix });
    await waitFor(async () => {
      const job = await queue.getJob(unclaimed.body.data.id as string);
      return (await job?.getState()) === 'failed';
    }, 30_000);
    await queue.close();
    connection.disconnect();

    const stored = await sql.query<{ text: string | null }>(
      `SELECT error_message AS text FROM extractions UNION ALL SELECT error FROM webhook_attempts`,
    );
    const reasons = await jobReasons();
    // Log lines are written through a buffer flushed every second: wait for the worker's line
    // about the refused completion before reading what the processes wrote.
    await waitFor(() => worker.output().includes('forced_complete'), 10_000).catch(() => undefined);
    const logs = `${replica.process.output()}\n${worker.output()}`;
    const everything = [logs, ...stored.rows.map((r) => r.text ?? ''), ...reasons].join('\n');

    const key = api.keys.write;
    const forbidden = {
      ...secret,
      webhookSecret,
      webhookKey: webhookSecret.replace(/^whsec_/, ''),
      apiKey: key,
      apiKeyBody: key.replace(/^sk_live_/, ''),
      keyHashHex: hashKey(key).toString('hex'),
      keyHashBase64: hashKey(key).toString('base64'),
    };
    for (const [what, value] of Object.entries(forbidden))
      expect(everything.includes(value), `${what} appears in logs or failure reasons`).toBe(false);

    // The forced errors did happen and were logged and stored, by code, not by content.
    expect(logs).toContain('"code":"23514"');
    expect(logs).toContain('forced_complete');
    expect(reasons.join('\n')).toContain('forced_claim');
    expect(stored.rows.map((r) => r.text)).toContain('The extraction failed unexpectedly.');
  });
});
