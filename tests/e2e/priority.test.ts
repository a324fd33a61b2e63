/**
 * `priority` on create (docs/batch.md): accepted in every body type, refused with a 422 naming
 * it when it is not one of the two, shown on both records, and a batch job waits behind every
 * standard one in the queue.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTION_QUEUE } from '@xt/queue';
import { testRedisUrl } from '@xt/testkit';
import { checkResponsesAgainstOpenApi, startTestApi, type TestApi } from '@xt/api/testing';
import { createInvoiceSchema } from '../support/schemas.ts';

checkResponsesAgainstOpenApi();

let api: TestApi;
let schemaId: string;

beforeAll(async () => {
  // No worker: the jobs stay in the queue, where their order can be read.
  api = await startTestApi();
  schemaId = await createInvoiceSchema(api);
});

afterAll(async () => {
  await api?.close();
});

const async = { prefer: 'respond-async' };

const json = (priority: unknown) =>
  api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source: 'Total: 1.00 EUR', priority },
    headers: async,
  });

const urlencoded = (priority: string) =>
  api.request('POST', '/v1/extractions', {
    body: new URLSearchParams({ schema_id: schemaId, type: 'text', source: 'x', priority }),
    headers: { ...async, 'content-type': 'application/x-www-form-urlencoded' },
  });

const multipart = (priority: string) => {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', 'text');
  form.append('source', new Blob(['Total: 2.00 EUR'], { type: 'text/plain' }), 'a.txt');
  form.append('priority', priority);
  return api.request('POST', '/v1/extractions', { body: form, headers: async });
};

describe('priority on create', () => {
  it('is refused with a 422 naming it when it is not standard or batch, in every body type', async () => {
    for (const res of [
      await json('urgent'),
      await json(true),
      await urlencoded('BATCH'),
      await multipart('later'),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        { field: 'priority', message: 'priority must be one of: standard, batch' },
      ]);
    }
  });

  it('is shown on both records: batch when asked, standard by default', async () => {
    const asked = [await json('batch'), await urlencoded('batch'), await multipart('batch')];
    const plain = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total: 3.00 EUR' },
      headers: async,
    });
    for (const res of [...asked, plain]) expect(res.status).toBe(202);
    const ids = asked.map((r) => r.body.data.id as string);
    for (const id of ids) {
      const single = await api.request('GET', `/v1/extractions/${id}`);
      expect(single.body.data.priority).toBe('batch');
    }
    const single = await api.request('GET', `/v1/extractions/${plain.body.data.id as string}`);
    expect(single.body.data.priority).toBe('standard');
    const list = await api.request('GET', '/v1/extractions?limit=100');
    const byId = new Map(
      (list.body.data.data as { id: string; priority: string }[]).map((r) => [r.id, r.priority]),
    );
    for (const id of ids) expect(byId.get(id)).toBe('batch');
    expect(byId.get(plain.body.data.id as string)).toBe('standard');
  });

  it('puts a batch job behind every standard job in the queue', async () => {
    const batch = await json('batch');
    const standard = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total: 4.00 EUR' },
      headers: async,
    });
    const queue = new Queue(EXTRACTION_QUEUE, {
      connection: { url: testRedisUrl() },
      prefix: api.prefix,
    });
    try {
      const [b, s] = await Promise.all([
        queue.getJob(batch.body.data.id as string),
        queue.getJob(standard.body.data.id as string),
      ]);
      expect(b?.opts.priority).toBeGreaterThan(1_000_000);
      expect(s?.opts.priority).toBeLessThan(1_000);
    } finally {
      await queue.close();
    }
  });
});
