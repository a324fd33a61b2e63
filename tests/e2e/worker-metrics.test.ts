/**
 * A real worker process's /metrics after real jobs: a text extraction, PDFs uploaded and
 * fetched, two webpages, one retried after a provider 503 and one failed by a provider 400.
 * Counters carry the right labels, the stages each job went through have observations, and no
 * job's id becomes a label.
 */
import { describe, expect } from 'vitest';
import { freePort } from '@xt/embedded';
import { startFixtureServer, textPdf } from '@xt/testkit/fixtures';
import { stackTest } from '../support/stack.ts';

// Started first: the API and the worker are told their addresses.
const fixtures = await startFixtureServer({
  '/report.pdf': { body: await textPdf(['Total due 99 EUR']), contentType: 'application/pdf' },
  '/page.html': {
    contentType: 'text/html; charset=utf-8',
    body: '<!doctype html><html><body><main><h1>Order 991</h1><p>Total 77.50</p></main></body></html>',
  },
});
const allow = `127.0.0.1:${fixtures.port}`;
const port = await freePort();
const metricsUrl = `http://127.0.0.1:${port}/metrics`;

const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '60', SOURCE_ALLOWLIST: allow },
  worker: {
    WORKER_METRICS_PORT: String(port),
    WORKER_METRICS_HOST: '127.0.0.1',
    METRICS_TOKEN: 'scrape-secret',
    PREP_THREADS: '1',
    SOURCE_ALLOWLIST: allow,
    RENDER_CONCURRENCY: '1',
    // One page per browser: the second webpage needs a fresh Chromium, a restart to count.
    BROWSER_MAX_PAGES: '1',
    PAGE_TIMEOUT_MS: '20000',
  },
  openApi: false,
});

test.afterAll(() => fixtures.close());

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
      [...(match[2] ?? '').matchAll(/(?<![a-z_])([a-z_]+)="([^"]*)"/gi)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('worker metrics after real jobs', () => {
  test('count outcomes, retries, model calls and stage times with bounded labels', async ({
    api,
    model,
  }) => {
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
    const completes = async (json: Record<string, unknown>) => {
      const res = await create(json);
      expect(res.body.data.status).toBe('completed');
      ids.push(res.body.data.id);
    };

    await completes({ type: 'text', source: 'Total due 12.50 EUR' });
    const pdfBytes = await textPdf(['Total due 4321.50 EUR']);
    await completes({
      type: 'pdf',
      source: `data:application/pdf;base64,${pdfBytes.toString('base64')}`,
    });
    await completes({ type: 'pdf', source: `${fixtures.url}/report.pdf` });
    await completes({ type: 'webpage', source: `${fixtures.url}/page.html` });
    await completes({ type: 'webpage', source: `${fixtures.url}/page.html` });
    model.behave({ status: 503 });
    await completes({ type: 'text', source: 'Total due 7 EUR' });
    model.behave({ status: 400 });
    const failed = await create({ type: 'text', source: 'Total due 8 EUR' });
    expect(failed.body.status).toBe(false);

    expect((await fetch(metricsUrl)).status).toBe(401);
    const res = await fetch(metricsUrl, { headers: { authorization: 'Bearer scrape-secret' } });
    expect(res.status).toBe(200);
    const scraped = await res.text();
    const value = (name: string, labels: Record<string, string> = {}) =>
      sample(scraped, name, labels);

    expect(value('worker_extractions_total', { outcome: 'completed', code: 'none' })).toBe(6);
    expect(
      value('worker_extractions_total', { outcome: 'failed', code: 'MODEL_UNAVAILABLE' }),
    ).toBe(1);
    expect(value('worker_job_retries_total', { code: 'MODEL_UNAVAILABLE' })).toBe(1);

    // Seven jobs' calls: six valid answers, and a 503 and a 400 that brought no answer.
    const calls = (outcome: string) =>
      value('worker_model_calls_total', { model: 'gpt-4.1', outcome });
    expect(calls('ok')).toBe(6);
    expect(calls('unavailable')).toBe(2);
    for (const kind of ['prompt', 'completion'])
      expect(
        value('worker_model_tokens_total', { model: 'gpt-4.1', outcome: 'ok', kind }),
      ).toBeGreaterThan(0);

    const stage = (name: string, type: string) =>
      value('worker_stage_duration_seconds_count', { stage: name, source_type: type }) ?? 0;
    // Every text attempt reached the model and recorded its outcome, the failed ones too.
    expect(stage('model', 'text')).toBe(4);
    expect(stage('store', 'text')).toBe(4);
    expect(stage('fetch', 'text')).toBe(0);
    // One PDF came as a data: URL (stored with its row and read back), one by URL: both fetched.
    expect(stage('fetch', 'pdf')).toBe(2);
    // Both PDFs' pages were counted, to see whether they go as page windows (the one by URL
    // once fetched, from the fetched bytes), and read in the same pass: each opened once.
    expect(stage('rasterise', 'pdf')).toBe(2);
    expect(stage('parse', 'pdf')).toBe(0);
    expect(stage('model', 'pdf')).toBe(2);
    expect(stage('store', 'pdf')).toBe(2);
    expect(stage('render', 'webpage')).toBe(2);
    expect(stage('model', 'webpage')).toBe(2);
    expect(value('worker_chromium_restarts_total')).toBe(1);
    expect(value('worker_browser_contexts_open')).toBe(0);

    expect(value('worker_queue_wait_seconds_count', { attempt: 'first' })).toBe(7);
    expect(value('worker_queue_wait_seconds_count', { attempt: 'retry' })).toBe(1);
    expect(value('worker_prep_threads_max')).toBe(1);
    expect(value('worker_prep_threads_busy')).toBe(0);
    expect(value('worker_jobs_in_progress')).toBe(0);
    expect(value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    for (const id of ids) expect(scraped).not.toContain(id);
  }, 180_000);
});
