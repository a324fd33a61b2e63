/**
 * Webhook events end to end, against real PostgreSQL, Redis and worker processes: a receiver
 * started here checks every signature with its own HMAC code (not the service's), events
 * recorded by a worker that dies before handing them on are still delivered, failures are
 * retried under the same webhook-id, and rotation, disabling and other accounts hold.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, waitFor, type AppProcess, type ModelStandIn } from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '@xt/api/testing';
import { createInvoiceSchema } from '../support/schemas.ts';

checkResponsesAgainstOpenApi();

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Standard Webhooks verification, written from the specification for this test. */
function verifies(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const timestamp = String(r.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${r.body}`).digest();
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((sig) => {
      const [version, mac] = sig.split(',');
      const given = Buffer.from(mac ?? '', 'base64');
      return (
        version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
      );
    });
}

let api: TestApi;
let model: ModelStandIn;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Answers per path, used up in order; then 200. */
const script = new Map<string, number[]>();
const workers: AppProcess[] = [];
let schemaId: string;
let workerEnv: Record<string, string>;

const at = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = script.get(path)?.shift() ?? 200;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  receiverUrl = `http://127.0.0.1:${port}`;
  // Only this receiver is exempt from the private-address rule, as a deployment would name
  // an internal receiver; everything else on loopback stays refused.
  const allow = { WEBHOOK_ALLOWLIST: `127.0.0.1:${port}` };
  workerEnv = {
    ...allow,
    WEBHOOK_RETRY_DELAYS: '200ms,400ms,600ms',
    WEBHOOK_RELAY_INTERVAL_MS: '100',
  };
  model = await startModelStandIn();
  api = await startTestApi(allow);
  schemaId = await createInvoiceSchema(api);
});

afterAll(async () => {
  for (const w of workers) await w.stop();
  await api?.close();
  await model?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function endpoint(path: string, events: string[], key?: string) {
  const res = await api.request('POST', '/v1/webhooks', {
    json: { url: `${receiverUrl}${path}`, events },
    ...(key ? { key } : {}),
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

async function extract(source: string, metadata?: Record<string, string>) {
  const res = await api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source, ...(metadata ? { metadata } : {}) },
    headers: { prefer: 'respond-async' },
  });
  expect(res.status).toBe(202);
  return res.body.data.id as string;
}

async function finished(id: string) {
  return waitFor(async () => {
    const got = await api.request('GET', `/v1/extractions/${id}`);
    return ['completed', 'failed'].includes(got.body.data.status) ? got.body.data : undefined;
  }, 30_000);
}

const bodies = (path: string) => at(path).map((r) => JSON.parse(r.body) as Record<string, any>);
const forExtraction = (path: string, id: string) =>
  at(path).filter((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === id);

describe('webhook delivery', () => {
  let main: { id: string; secret: string };
  let flaky: { id: string; secret: string };
  let disabled: { id: string; secret: string };
  let theirs: { id: string; secret: string };
  let survivorId: string;

  it('delivers an event recorded by a worker killed right after completing', async () => {
    main = await endpoint('/main', ['extraction.completed', 'extraction.failed']);
    flaky = await endpoint('/flaky', ['extraction.completed']);
    disabled = await endpoint('/disabled', ['extraction.completed', 'extraction.failed']);
    await api.request('PATCH', `/v1/webhooks/${disabled.id}`, { json: { enabled: false } });
    theirs = await endpoint('/theirs', ['extraction.completed'], api.keys.other);

    // This worker runs no webhook relay: what it records stays in the outbox, as if it had
    // been killed the moment its transaction committed.
    const doomed = await startTestWorker(api, model.url, {
      ...workerEnv,
      WEBHOOK_CONCURRENCY: '0',
    });
    workers.push(doomed);
    survivorId = await extract('Invoice total 12.50', { order: 'A-1' });
    const record = await finished(survivorId);
    expect(record.status).toBe('completed');
    await doomed.stop('SIGKILL');

    const db = new pg.Client({ connectionString: api.database.url });
    await db.connect();
    const waiting = await db.query(
      'select m.enqueued_at from webhook_messages m join webhook_events e on e.id = m.event_id where e.extraction_id = $1',
      [survivorId],
    );
    await db.end();
    // main and flaky; not the disabled endpoint, not another account's.
    expect(waiting.rows).toHaveLength(2);
    expect(waiting.rows.every((r: { enqueued_at: unknown }) => r.enqueued_at === null)).toBe(true);
    expect(received).toHaveLength(0);

    // Deleting the extraction does not recall the event.
    expect((await api.request('DELETE', `/v1/extractions/${survivorId}`)).status).toBe(200);
    script.set('/flaky', [500, 503]);
    workers.push(await startTestWorker(api, model.url, workerEnv));

    const [delivered] = await waitFor(() => at('/main').length > 0 && at('/main'), 30_000);
    expect(verifies(main.secret, delivered!)).toBe(true);
    expect(delivered!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(delivered!.body);
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'data', 'id', 'metadata', 'type']);
    expect(body).toMatchObject({ type: 'extraction.completed', metadata: { order: 'A-1' } });
    expect(body.id).toBe(delivered!.headers['webhook-id']);
    expect(body.data).toEqual(record);
    const age = Date.now() / 1000 - Number(delivered!.headers['webhook-timestamp']);
    expect(Math.abs(age)).toBeLessThan(300);
    // Two worker processes start and one extraction runs: more than the default minute on a
    // busy machine, while each wait inside is bounded on its own.
  }, 150_000);

  it('retries a failing receiver under the same webhook-id until it answers 2xx', async () => {
    const attempts = await waitFor(() => at('/flaky').length >= 3 && at('/flaky'), 30_000);
    expect(attempts).toHaveLength(3);
    const ids = new Set(attempts.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect(attempts.every((r) => verifies(flaky.secret, r))).toBe(true);
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);

    const listed = await waitFor(async () => {
      const res = await api.request('GET', `/v1/webhooks/${flaky.id}/deliveries`);
      return res.body.data.data[0]?.status === 'delivered' ? res.body.data : undefined;
    });
    expect(listed.meta).toMatchObject({ total: 3, currentPage: 1 });
    const [eventId] = [...ids];
    expect(listed.data).toEqual([
      expect.objectContaining({
        attempt: 3,
        status: 'delivered',
        responseStatus: 200,
        error: null,
      }),
      expect.objectContaining({ attempt: 2, status: 'pending', responseStatus: 503 }),
      expect.objectContaining({ attempt: 1, status: 'pending', responseStatus: 500 }),
    ]);
    for (const d of listed.data) {
      expect(Object.keys(d).sort()).toEqual(
        [
          'attempt',
          'createdAt',
          'error',
          'eventId',
          'id',
          'responseStatus',
          'status',
          'type',
        ].sort(),
      );
      expect(d).toMatchObject({ eventId, type: 'extraction.completed' });
    }
    expect(listed.data[1].error).toMatch(/503/);
  });

  it('announces failures too, and sends nothing to disabled or foreign endpoints', async () => {
    model.behave({ refuse: 'no' });
    const failedId = await extract('Refuse this one');
    expect((await finished(failedId)).status).toBe('failed');
    const [event] = await waitFor(() => {
      const got = forExtraction('/main', failedId);
      return got.length > 0 && got;
    });
    expect(verifies(main.secret, event!)).toBe(true);
    const body = JSON.parse(event!.body);
    expect(body.type).toBe('extraction.failed');
    expect(body.data).toMatchObject({
      id: failedId,
      status: 'failed',
      error: { code: 'MODEL_REFUSED' },
    });
    // flaky only subscribed to completions.
    expect(forExtraction('/flaky', failedId)).toHaveLength(0);
    expect(at('/disabled')).toHaveLength(0);
    expect(at('/theirs')).toHaveLength(0);
    const none = await api.request('GET', `/v1/webhooks/${disabled.id}/deliveries`);
    expect(none.body.data.meta.total).toBe(0);
    const foreign = await api.request('GET', `/v1/webhooks/${theirs.id}/deliveries`, {
      key: api.keys.other,
    });
    expect(foreign.body.data.meta.total).toBe(0);
  });

  it('signs with the new secret only, once rotated', async () => {
    const rotated = await api.request('POST', `/v1/webhooks/${main.id}/rotate-secret`);
    const fresh = rotated.body.data.secret as string;
    const id = await extract('After rotation');
    await finished(id);
    const [event] = await waitFor(() => {
      const got = forExtraction('/main', id);
      return got.length > 0 && got;
    });
    expect(verifies(fresh, event!)).toBe(true);
    expect(verifies(main.secret, event!)).toBe(false);
  });

  it('gives up after the last retry and records every attempt', async () => {
    const dead = await endpoint('/dead', ['extraction.completed']);
    script.set('/dead', [500, 500, 500, 500, 500]);
    const id = await extract('Nobody listens');
    await finished(id);
    const listed = await waitFor(async () => {
      const res = await api.request('GET', `/v1/webhooks/${dead.id}/deliveries?limit=2`);
      return res.body.data.data[0]?.status === 'failed' ? res.body.data : undefined;
    });
    // One attempt and three retries (WEBHOOK_RETRY_DELAYS has three delays here).
    expect(listed.meta).toMatchObject({ total: 4, lastPage: 2, perPage: 2 });
    expect(listed.data[0]).toMatchObject({ attempt: 4, status: 'failed', responseStatus: 500 });
    expect(at('/dead')).toHaveLength(4);
    expect(bodies('/dead').every((b) => b.data.id === id)).toBe(true);
  });
});
