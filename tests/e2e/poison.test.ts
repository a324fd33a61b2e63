/**
 * Hostile content stays contained. Pathological sources (text ending in thousands of blank
 * lines, runs of spaces and tabs, HTML whose <pre> holds 200,000 spaces, HTML nested 60,000
 * deep, JSON nested 100,000 deep, Markdown of 100,000 emphasis marks) sent beside ordinary
 * extractions: the ordinary ones complete, the API keeps answering, and each pathological one
 * reaches a final state, uncharged when it failed. And a row that stalled its workers as often
 * as attempts allow is failed when claimed again, instead of going round for ever.
 *
 * The bounds (30 s, 2 s, 2 minutes) are those of the scenario, not micro-timings: before
 * sources were read in linear time off the main loop, one such upload froze a worker for minutes.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, waitFor, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess | undefined;
let schemaId: string;

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi();
  const schema = await api.request('POST', '/v1/schemas', {
    json: { name: 'Poison', structure: { type: 'object', properties: { a: { type: 'string' } } } },
  });
  schemaId = schema.body.data.id as string;
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
});

async function sql<T = Record<string, unknown>>(text: string, params: unknown[]): Promise<T[]> {
  const db = new pg.Client({ connectionString: api.database.url });
  await db.connect();
  try {
    return (await db.query(text, params)).rows as T[];
  } finally {
    await db.end();
  }
}

const createText = (source: string) =>
  api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source },
    headers: { prefer: 'respond-async' },
  });

function createFile(name: string, content: string) {
  const form = new FormData();
  form.set('schema_id', schemaId);
  form.set('type', 'text');
  form.set('source', new Blob([content]), name);
  return api.request('POST', '/v1/extractions', {
    body: form,
    headers: { prefer: 'respond-async' },
  });
}

const recordOf = async (id: string) =>
  (await api.request('GET', `/v1/extractions/${id}`)).body.data as {
    status: string;
    charged: boolean;
    error?: { code: string };
  };
const isFinal = (status: string) => status === 'completed' || status === 'failed';

describe('a job that stalls its workers', () => {
  it('fails as TIMEOUT, uncharged and without a model call, once its claims are used up', async () => {
    const created = await createText('stalled four times already');
    expect(created.status).toBe(202);
    const id = created.body.data.id as string;
    // As four workers that each froze on it and were replaced would have left it.
    await sql(`update extractions set status = 'processing', attempts = 4 where id = $1`, [id]);
    worker = await startTestWorker(api, model.url, { JOB_ATTEMPTS: '4' });
    const done = await waitFor(async () => {
      const rec = await recordOf(id);
      return isFinal(rec.status) ? rec : undefined;
    }, 60_000);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('TIMEOUT');
    expect(done.charged).toBe(false);
    expect(model.requests).toHaveLength(0);
    const [row] = await sql<{ attempts: number }>(
      'select attempts from extractions where id = $1',
      [id],
    );
    expect(row?.attempts).toBe(5);
  }, 120_000);
});

describe('pathological sources beside ordinary ones', () => {
  it('keeps the API answering and the ordinary extractions flowing', async () => {
    worker ??= await startTestWorker(api, model.url);
    // The API's latency, sampled throughout: every answer within 2 s.
    const slow: string[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = Date.now();
        try {
          const res = await fetch(`${api.url}/v1/extractions?limit=1`, {
            headers: { authorization: `Bearer ${api.keys.read}` },
            signal: AbortSignal.timeout(2_000),
          });
          await res.text();
          if (res.status !== 200) slow.push(`status ${res.status}`);
        } catch (err) {
          slow.push(`${(err as Error).name} after ${Date.now() - started} ms`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();

    const poison = await Promise.all([
      createText(`Total: 12 EUR${'\n'.repeat(5_000)}`),
      createText(`Total:${' \t'.repeat(100_000)}12 EUR${' \t'.repeat(100_000)}`),
      createFile('spaces.html', `<pre>${' '.repeat(200_000)}</pre>`),
      createFile('deep.html', `${'<div>'.repeat(60_000)}x${'</div>'.repeat(60_000)}`),
      createFile('deep.json', `${'['.repeat(100_000)}1${']'.repeat(100_000)}`),
      createFile('emphasis.md', `Total ${'*_'.repeat(50_000)} 12 EUR`),
    ]);
    for (const res of poison) expect(res.status).toBe(202);
    const ordinary = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createText(`Invoice ${i}: total ${i + 10} EUR`)),
    );
    for (const res of ordinary) expect(res.status).toBe(202);

    await waitFor(async () => {
      const records = await Promise.all(ordinary.map((r) => recordOf(r.body.data.id as string)));
      return records.every((r) => r.status === 'completed');
    }, 30_000);

    const finals = await waitFor(async () => {
      const records = await Promise.all(poison.map((r) => recordOf(r.body.data.id as string)));
      return records.every((r) => isFinal(r.status)) ? records : undefined;
    }, 120_000);
    probing = false;
    await probe;
    for (const rec of finals) if (rec.status === 'failed') expect(rec.charged).toBe(false);
    // The two HTML files: one has no text, one nests past what a parser may take.
    expect(finals[2]?.error?.code).toBe('SOURCE_UNREADABLE');
    expect(finals[3]?.error?.code).toBe('SOURCE_UNREADABLE');
    expect(slow).toEqual([]);
  }, 240_000);
});
