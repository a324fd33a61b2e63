/**
 * A real worker process's /metrics after real jobs: a text extraction, a PDF one, one retried
 * after a provider 503 and one failed by a provider 400. Counters carry the right labels,
 * the stages each job went through have observations, and no job's id becomes a label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import { textPdf } from '@xt/testkit/fixtures';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '../test-support.ts';

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let metricsUrl: string;

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi({ EXTRACTION_WAIT_SECONDS: '60' });
  const port = await freePort();
  worker = await startTestWorker(api, model.url, {
    WORKER_METRICS_PORT: String(port),
    WORKER_METRICS_HOST: '127.0.0.1',
    METRICS_TOKEN: 'scrape-secret',
    PREP_THREADS: '1',
  });
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
});

/** The value of one series in Prometheus text, or undefined when it is absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:][a-z0-9_:]*)(?:\{(.*)\})? (\S+)$/i.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/gi)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('worker metrics after real jobs', () => {
  it('count outcomes, retries, model calls and stage times with bounded labels', async () => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Total',
        structure: { type: 'object', properties: { total: { type: 'number' } } },
      },
    });
    const create = (json: Record<string, unknown>) =>
      api.request('POST', '/v1/extractions', {
        json: { schema_id: schema.body.data.id, ...json },
      });
    const ids: string[] = [];

    const text = await create({ type: 'text', source: 'Total due 12.50 EUR' });
    expect(text.body.data.status).toBe('completed');
    ids.push(text.body.data.id);

    const pdf = await create({
      type: 'pdf',
      source: `data:application/pdf;base64,${(await textPdf(['Total due 4321.50 EUR'])).toString('base64')}`,
    });
    expect(pdf.body.data.status).toBe('completed');
    ids.push(pdf.body.data.id);

    model.behave({ status: 503 });
    const retried = await create({ type: 'text', source: 'Total due 7 EUR' });
    expect(retried.body.data.status).toBe('completed');
    ids.push(retried.body.data.id);

    model.behave({ status: 400 });
    const failed = await create({ type: 'text', source: 'Total due 8 EUR' });
    expect(failed.body.status).toBe(false);
    ids.push(failed.body.data?.id ?? failed.body.id ?? '');

    expect((await fetch(metricsUrl)).status).toBe(401);
    const res = await fetch(metricsUrl, { headers: { authorization: 'Bearer scrape-secret' } });
    expect(res.status).toBe(200);
    const scraped = await res.text();

    expect(
      sample(scraped, 'worker_extractions_total', { outcome: 'completed', code: 'none' }),
    ).toBe(3);
    expect(
      sample(scraped, 'worker_extractions_total', { outcome: 'failed', code: 'MODEL_UNAVAILABLE' }),
    ).toBe(1);
    expect(sample(scraped, 'worker_job_retries_total', { code: 'MODEL_UNAVAILABLE' })).toBe(1);

    // Four jobs' calls: three valid answers, one 503 and one 400 with no answer.
    expect(sample(scraped, 'worker_model_calls_total', { model: 'gpt-4.1', outcome: 'ok' })).toBe(
      3,
    );
    expect(
      sample(scraped, 'worker_model_calls_total', { model: 'gpt-4.1', outcome: 'unavailable' }),
    ).toBe(2);
    for (const kind of ['prompt', 'completion'])
      expect(
        sample(scraped, 'worker_model_tokens_total', { model: 'gpt-4.1', outcome: 'ok', kind }),
      ).toBeGreaterThan(0);

    const stageCount = (stage: string, type: string) =>
      sample(scraped, 'worker_stage_duration_seconds_count', { stage, source_type: type }) ?? 0;
    // Every text attempt reached the model and recorded its outcome, the failed ones too.
    expect(stageCount('model', 'text')).toBe(4);
    expect(stageCount('store', 'text')).toBe(4);
    // The PDF arrived as a data: URL: stored with its row, read back (fetch), then prepared.
    expect(stageCount('fetch', 'pdf')).toBe(1);
    expect(stageCount('rasterise', 'pdf')).toBe(1);
    expect(stageCount('model', 'pdf')).toBe(1);
    expect(stageCount('store', 'pdf')).toBe(1);
    expect(stageCount('render', 'webpage')).toBe(0);

    expect(sample(scraped, 'worker_queue_wait_seconds_count', { attempt: 'first' })).toBe(4);
    expect(sample(scraped, 'worker_queue_wait_seconds_count', { attempt: 'retry' })).toBe(1);
    expect(sample(scraped, 'worker_prep_threads_max')).toBe(1);
    expect(sample(scraped, 'worker_prep_threads_busy')).toBe(0);
    expect(sample(scraped, 'worker_jobs_in_progress')).toBe(0);
    expect(sample(scraped, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    for (const id of ids.filter(Boolean)) expect(scraped).not.toContain(id);
  }, 120_000);
});
