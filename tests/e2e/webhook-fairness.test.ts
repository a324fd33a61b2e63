/**
 * Webhook delivery slots are shared between accounts: one account whose twenty receivers hang
 * (answering nothing until this test lets them) holds only its own share of a worker's delivery
 * slots, and another account's event is delivered while every one of those requests is still
 * open. Nothing here depends on timing: the hanging receivers never answer on their own, and the
 * worker's timeout is far longer than the test.
 */
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, waitFor, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';
import { INVOICE_STRUCTURE } from '../support/schemas.ts';

const HANGING = 20;
const EVENTS_OF_A = 3;
/** The worker's default share of one account. */
const PER_ACCOUNT = 10;

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess | undefined;
let receiver: Server;
let receiverUrl: string;
let db: pg.Client;

/** Requests to `/a/…` are held here, unanswered, until `release()`. */
const held: { path: string; res: ServerResponse; closedEarly: boolean }[] = [];
let released = false;
const arrivals: { path: string; eventId: string }[] = [];

function release() {
  released = true;
  for (const h of held.splice(0)) h.res.writeHead(200).end();
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      arrivals.push({ path, eventId: String(req.headers['webhook-id']) });
      if (!path.startsWith('/a/') || released) return void res.writeHead(200).end();
      const entry = { path, res, closedEarly: false };
      res.on('close', () => {
        if (!res.writableEnded) entry.closedEarly = true;
      });
      held.push(entry);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const allow = { WEBHOOK_ALLOWLIST: receiverUrl.replace('http://', '') };
  model = await startModelStandIn();
  api = await startTestApi(allow);
  db = new pg.Client({ connectionString: api.database.url });
  await db.connect();
  worker = await startTestWorker(api, model.url, {
    ...allow,
    WEBHOOK_RELAY_INTERVAL_MS: '100',
    // Longer than the test: a held request ends only when the test answers it.
    WEBHOOK_TIMEOUT_MS: '3600000',
  });
});

afterAll(async () => {
  await worker?.stop();
  await db?.end();
  await api?.close();
  await model?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function endpoint(path: string, key: string) {
  const res = await api.request('POST', '/v1/webhooks', {
    json: { url: `${receiverUrl}${path}`, events: ['extraction.completed'] },
    key,
  });
  expect(res.status).toBe(201);
}

async function completedExtraction(key: string, schemaId: string, source: string) {
  const res = await api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source },
    headers: { prefer: 'respond-async' },
    key,
  });
  expect(res.status).toBe(202);
  const id = res.body.data.id as string;
  await waitFor(async () => {
    const got = await api.request('GET', `/v1/extractions/${id}`, { key });
    return got.body.data.status === 'completed';
  }, 60_000);
}

async function schemaOf(key: string) {
  const res = await api.request('POST', '/v1/schemas', {
    json: { name: 'Invoice', structure: INVOICE_STRUCTURE },
    key,
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

/** Messages of the account behind `key`'s endpoints, by status, once all are queued. */
async function messages(pathPrefix: string) {
  const { rows } = await db.query<{ status: string; queued: boolean }>(
    `select m.status, m.enqueued_at is not null as queued
       from webhook_messages m join webhook_endpoints e on e.id = m.endpoint_id
      where e.url like $1`,
    [`${receiverUrl}${pathPrefix}%`],
  );
  return rows;
}

describe('webhook delivery across accounts', () => {
  it("delivers another account's event while one account's receivers all hang", async () => {
    const a = api.keys.write;
    const b = api.keys.other;
    for (let i = 0; i < HANGING; i++) await endpoint(`/a/${i}`, a);
    await endpoint('/b', b);
    const schemaA = await schemaOf(a);
    const schemaB = await schemaOf(b);

    // Account A: 3 events × 20 endpoints = 60 deliveries, more than the worker's 50 slots.
    for (let i = 0; i < EVENTS_OF_A; i++)
      await completedExtraction(a, schemaA, `Invoice total ${i + 1}.00`);
    await waitFor(async () => {
      const rows = await messages('/a/');
      return rows.length === HANGING * EVENTS_OF_A && rows.every((r) => r.queued);
    }, 60_000);
    // A's deliveries have taken every slot they may: the ones they got are all hanging.
    await waitFor(() => held.length >= PER_ACCOUNT, 60_000);

    await completedExtraction(b, schemaB, 'Invoice total 9.00');
    await waitFor(() => arrivals.some((r) => r.path === '/b'), 60_000);

    // B's event went out while every request to A's receivers was still open and unanswered,
    // and A never held more than its share.
    expect(released).toBe(false);
    expect(held.every((h) => !h.closedEarly)).toBe(true);
    const toA = arrivals.filter((r) => r.path.startsWith('/a/'));
    expect(toA.length).toBe(held.length);
    expect(toA.length).toBeLessThanOrEqual(PER_ACCOUNT);
    const [toB] = await waitFor(async () => {
      const rows = await messages('/b');
      return rows.length === 1 && rows[0]?.status === 'delivered' && rows;
    });
    expect(toB).toMatchObject({ status: 'delivered' });
  }, 240_000);

  it('delivers every held-back event of the hanging account once its receivers answer', async () => {
    release();
    const rows = await waitFor(async () => {
      const got = await messages('/a/');
      return got.every((r) => r.status === 'delivered') && got;
    }, 120_000);
    expect(rows).toHaveLength(HANGING * EVENTS_OF_A);
    // Each receiver got each of the three events (an answered one is never sent again).
    const toA = arrivals.filter((r) => r.path.startsWith('/a/'));
    expect(new Set(toA.map((r) => `${r.path} ${r.eventId}`)).size).toBe(HANGING * EVENTS_OF_A);
    expect(toA).toHaveLength(HANGING * EVENTS_OF_A);
  }, 180_000);
});
