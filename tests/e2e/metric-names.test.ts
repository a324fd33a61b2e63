/**
 * The metrics both apps expose are well named, and requests refused before any handler are
 * labelled with the route they were aimed at. `promtool check metrics` (Debian's `prometheus`
 * package) is run when it is installed; the naming rules it applies that matter here are also
 * checked without it, so a gauge named like a counter fails either way.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let workerMetricsUrl: string;

const promtool = spawnSync('promtool', ['--version']).status === 0;

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi();
  const port = await freePort();
  worker = await startTestWorker(api, model.url, {
    WORKER_METRICS_PORT: String(port),
    WORKER_METRICS_HOST: '127.0.0.1',
  });
  workerMetricsUrl = `http://127.0.0.1:${port}/metrics`;
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
});

const scrape = async (url: string) => (await fetch(url)).text();
const both = async () => ({
  api: await scrape(`${api.url}/metrics`),
  worker: await scrape(workerMetricsUrl),
});

/** Prometheus's naming rules for a metric's type (https://prometheus.io/docs/practices/naming/). */
function namingProblems(text: string): string[] {
  const problems: string[] = [];
  for (const [, name = '', type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (!/^[a-z_:][a-z0-9_:]*$/.test(name)) problems.push(`${name}: not snake_case`);
    if (type === 'counter' && !name.endsWith('_total'))
      problems.push(`${name}: a counter without _total`);
    if (type !== 'counter' && /_(total|count|sum|bucket)$/.test(name))
      problems.push(`${name}: a ${type} with a counter's or histogram's suffix`);
  }
  return problems;
}

function promtoolCheck(text: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics']);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
    child.stdin.end(text);
  });
}

describe('metric names', () => {
  it('follow the naming rules in both apps (no gauge ends in _total)', async () => {
    const { api: apiText, worker: workerText } = await both();
    expect(apiText).toContain('# TYPE nodejs_active_handles gauge');
    expect(apiText).not.toContain('nodejs_active_handles_total');
    expect(namingProblems(apiText)).toEqual([]);
    expect(namingProblems(workerText)).toEqual([]);
  });

  it.skipIf(!promtool)(
    promtool
      ? 'pass promtool check metrics in both apps'
      : 'pass promtool check metrics in both apps — SKIPPED: promtool is not installed (Debian: apt-get install prometheus)',
    async () => {
      const texts = await both();
      for (const text of [texts.api, texts.worker]) {
        const result = await promtoolCheck(text);
        expect(result.output).toBe('');
        expect(result.status).toBe(0);
      }
    },
  );
});

describe('route labels of answers given before any handler', () => {
  it('labels 401, 403 and 405 with the route aimed at, never "unmatched"', async () => {
    const id = '6f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a';
    expect((await api.request('GET', `/v1/extractions/${id}`, { key: null })).status).toBe(401);
    expect((await api.request('GET', `/extractions/${id}`, { key: 'sk_live_nope' })).status).toBe(
      401,
    );
    const forbidden = await api.request('DELETE', `/v1/schemas/${id}`, { key: api.keys.read });
    expect(forbidden.status).toBe(403);
    expect((await api.request('PUT', '/v1/extractions')).status).toBe(405);
    const found = await api.request('GET', `/v1/schemas/${id}`);
    expect(found.status).toBe(404);

    const text = await scrape(`${api.url}/metrics`);
    const count = (labels: string) =>
      Number(
        new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(
          text,
        )?.[1] ?? 0,
      );
    expect(count('method="GET",route="/extractions/:id",status="401"')).toBe(2);
    expect(count('method="DELETE",route="/schemas/:id",status="403"')).toBe(1);
    expect(count('method="PUT",route="/extractions",status="405"')).toBe(1);
    // The same label a request that reached its handler carries.
    expect(count('method="GET",route="/schemas/:id",status="404"')).toBe(1);
    expect(text).not.toMatch(/route="unmatched",status="40[13]"/);
  });
});
