/**
 * One trace id across processes: the client's W3C traceparent (or one the API starts) reaches
 * the worker through the job, and every line either process writes about the extraction
 * carries its trace id, beside the extraction id, request id and attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, waitFor, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startApiReplica, startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';

let api: TestApi;
let replica: Awaited<ReturnType<typeof startApiReplica>>;
let worker: AppProcess;
let model: ModelStandIn;
let schemaId: string;

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi();
  replica = await startApiReplica(api);
  worker = await startTestWorker(api, model.url);
  const schema = await api.request('POST', '/v1/schemas', {
    json: { name: 'Any', structure: { type: 'object', properties: { a: { type: 'string' } } } },
  });
  schemaId = schema.body.data.id as string;
});

afterAll(async () => {
  await worker?.stop();
  await replica?.close();
  await api?.close();
  await model?.close();
});

type Line = Record<string, unknown>;
const linesOf = (output: string): Line[] =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

/** Submits through the replica and waits for the worker's last line about the extraction. */
async function extract(headers: Record<string, string>) {
  const res = await api.request('POST', '/v1/extractions', {
    via: replica.url,
    json: { schema_id: schemaId, type: 'text', source: 'hello' },
    headers: { prefer: 'respond-async', ...headers },
  });
  expect(res.status).toBe(202);
  const id = res.body.data.id as string;
  const workerLines = await waitFor(() => {
    const about = linesOf(worker.output()).filter((l) => l.extractionId === id);
    return about.some((l) => l.msg === 'extraction completed') ? about : undefined;
  }, 30_000);
  const requestId = res.headers.get('x-request-id');
  // The API writes its logs in batches (up to a second apart), and a quick job can finish first.
  const apiLines = await waitFor(() => {
    const about = linesOf(replica.process.output()).filter((l) => l.requestId === requestId);
    return about.length > 0 ? about : undefined;
  }, 10_000);
  return { id, requestId, workerLines, apiLines };
}

describe('trace ids', () => {
  it("carries the client's traceparent to the worker's lines about the job", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const { id, requestId, workerLines, apiLines } = await extract({
      traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
    });
    expect(apiLines.length).toBeGreaterThan(0);
    for (const line of apiLines) expect(line.traceId).toBe(traceId);
    for (const line of workerLines)
      expect(line).toMatchObject({ traceId, extractionId: id, requestId, attempt: 1 });
  });

  it('starts a trace when the client sends none (or an invalid one) and shares it', async () => {
    const { workerLines, apiLines } = await extract({ traceparent: '00-zz-nonsense' });
    const traceId = apiLines[0]?.traceId;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    for (const line of [...apiLines, ...workerLines]) expect(line.traceId).toBe(traceId);
  });
});
