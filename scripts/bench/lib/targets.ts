/**
 * The two things every write/read figure is measured on, behind one shape: the service (its
 * public API) and the bare pipeline. Each knows how to create, read and list, and how to count
 * finished work in its own database.
 */
import pg from 'pg';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { send, type Answer } from './client.ts';

export interface Target {
  name: string;
  base: string;
  create(n: number, opts?: { async?: boolean; idempotencyKey?: string }): Promise<Answer>;
  get(id: string): Promise<Answer>;
  list(): Promise<Answer>;
  /** Relative URLs of one record and of a list page, for autocannon. */
  readPaths(id: string): { one: string; list: string };
  headers: Record<string, string>;
  /** Finished (completed or failed) rows so far, and how many of them failed. */
  finished(): Promise<{ done: number; failed: number }>;
  close(): Promise<void>;
  /** The same target reached through another base URL (a load balancer). */
  at(base: string, name: string): Target;
}

const source = (n: number) =>
  `Invoice ${n} from ACME Corporation, 1 Main Street. Total due ${n % 1000}.50 EUR by 31 March.`;

/** Logs in to the service's database for a key and creates the schema every request uses. */
export async function serviceTarget(
  name: string,
  base: string,
  databaseUrl: string,
): Promise<Target> {
  const handle = createDb(databaseUrl, { max: 1 });
  const { key } = await createKey(handle.db, { accountName: 'bench', scope: 'write' });
  await handle.close();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await send(`${base}/v1/schemas`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Invoice',
      structure: {
        type: 'object',
        properties: { vendor: { type: 'string' }, total: { type: 'number' } },
      },
    }),
  });
  if (created.status !== 201 && created.status !== 200) {
    throw new Error(`creating the schema answered ${created.status}: ${created.body}`);
  }
  const schemaId = (JSON.parse(created.body) as { data: { id: string } }).data.id;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const make = (name: string, base: string): Target => ({
    name,
    base,
    headers,
    create(n, opts = {}) {
      return send(`${base}/v1/extractions`, {
        method: 'POST',
        headers: {
          ...headers,
          ...(opts.async ? { prefer: 'respond-async' } : {}),
          ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}),
        },
        // Never an earlier answer: request n's text repeats across sections and reps, and a
        // reused answer (milliseconds, no model call) would be measured as the pipeline.
        body: JSON.stringify({
          schema_id: schemaId,
          type: 'text',
          source: source(n),
          cache: false,
        }),
      });
    },
    get: (id) => send(`${base}/v1/extractions/${id}`, { headers }),
    list: () => send(`${base}/v1/extractions?limit=10`, { headers }),
    readPaths: (id) => ({ one: `/v1/extractions/${id}`, list: '/v1/extractions?limit=10' }),
    async finished() {
      const r = await pool.query<{ done: number; failed: number }>(
        `select count(*) filter (where status in ('completed', 'failed'))::int as done,
                count(*) filter (where status = 'failed')::int as failed from extractions`,
      );
      return r.rows[0]!;
    },
    close: () => pool.end(),
    at: (other, otherName) => ({ ...make(otherName, other), close: () => Promise.resolve() }),
  });
  return make(name, base);
}

export function bareTarget(base: string, databaseUrl: string): Target {
  const headers = { 'content-type': 'application/json' };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  return {
    name: 'bare Express + BullMQ',
    base,
    headers,
    create(n, opts = {}) {
      return send(`${base}/jobs`, {
        method: 'POST',
        headers: { ...headers, ...(opts.async ? { prefer: 'respond-async' } : {}) },
        body: JSON.stringify({ source: source(n) }),
      });
    },
    get: (id) => send(`${base}/jobs/${id}`),
    list: () => send(`${base}/jobs?limit=10`),
    readPaths: (id) => ({ one: `/jobs/${id}`, list: '/jobs?limit=10' }),
    async finished() {
      const r = await pool.query<{ done: number }>(
        `select count(*) filter (where status = 'completed')::int as done from bare_jobs`,
      );
      return { done: r.rows[0]!.done, failed: 0 };
    },
    close: () => pool.end(),
    at: () => {
      throw new Error('the bare pipeline runs without a load balancer');
    },
  };
}

/** The id in a create's answer (the service's envelope or the bare route's plain object). */
export function idOf(answer: Answer): string | undefined {
  try {
    const body = JSON.parse(answer.body) as { id?: string; data?: { id?: string } };
    return body.data?.id ?? body.id;
  } catch {
    return undefined;
  }
}
